// tablero bridge: the course core's state written as tablero's state string fields, for the
// `d` command, so a cross-check can compare both rule sets position by position. Fields 1–9
// (mode, player, turn, pieces, dice of both players, board items, traps, bounces) are tablero's
// exact format; the course keeps remember_6 and bananed private, so the flags field carries
// only e and g; the outcome is `-` or `G<colour letter>` of the winning colour.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "course_api.h"
#include "notation.h"

namespace bridge {

namespace {

// Boxes of the 24 items of the start position, in tablero's bit order (rules §2).
const int START_ITEM_BOXES[24] = {5, 6, 22, 23, 39, 40, 56, 57, 14, 15, 31, 32,
                                  48, 49, 65, 66, 18, 19, 35, 36, 52, 53, 1, 2};
const char ITEM_LETTERS[] = "sourlmMkha";  // item codes 101..110

std::string box_text(const Box &b) {
    switch (b.type) {
        case home: return "h";
        case goal: return "g";
        case final_queue: return "q" + std::to_string(b.num);
        default: return "n" + std::to_string(b.num);
    }
}

char type_letter(special_type t) {
    switch (t) {
        case star_piece: return 's';
        case boo_piece: return 'o';
        case mega_piece: return 'm';
        case small_piece: return 'i';
        case bananed_piece: return 'b';
        default: return 'n';
    }
}

std::string dice_text(const Parchis &g, color main) {
    const std::vector<std::vector<int>> &layers = g.getDice().getAllDiceLayers(main);
    std::string normal, items, forced;
    for (int d : {1, 2, 4, 5, 6}) {
        if (std::find(layers[0].begin(), layers[0].end(), d) != layers[0].end()) normal += std::to_string(d);
    }
    if (layers.size() > 1) {
        for (int it : layers[1]) items += (it >= 101 && it <= 110) ? ITEM_LETTERS[it - 101] : '?';
    }
    for (std::size_t i = 2; i < layers.size(); i++) {
        for (int d : layers[i]) forced += (forced.empty() ? "" : "+") + std::to_string(d);
    }
    return normal + ":" + (items.empty() ? "-" : items) + ":" + (forced.empty() ? "-" : forced);
}

}  // namespace

std::string dump_state(const Parchis &g) {
    std::string s = g.isPlaygroundMode() ? "p" : "n";
    s += " " + std::to_string(g.getCurrentPlayerId()) + " " + std::to_string(g.getTurn()) + " ";
    const color order[4] = {yellow, blue, red, green};
    for (int k = 0; k < 4; k++) {
        if (k) s += "/";
        const std::vector<Piece> &ps = g.getBoard().getPieces(order[k]);
        for (std::size_t i = 0; i < ps.size(); i++) {
            if (i) s += ",";
            s += box_text(ps[i].get_box());
            if (ps[i].get_type() != normal_piece || ps[i].get_turns_left() != 0) {
                s += ":" + std::string(1, type_letter(ps[i].get_type())) + std::to_string(ps[i].get_turns_left());
            }
        }
    }
    s += " " + dice_text(g, yellow) + " " + dice_text(g, blue);
    unsigned mask = 0;
    for (const SpecialItem &it : g.getBoard().getSpecialItems()) {
        for (int i = 0; i < 24; i++) {
            if (START_ITEM_BOXES[i] == it.box.num && it.box.type == normal) mask |= 1u << i;
        }
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "%06x", mask);
    s += " " + std::string(hex) + " ";
    std::string traps;
    for (const BoardTrap &t : g.getBoard().getTraps()) traps += (traps.empty() ? "" : ",") + std::to_string(t.getBox().num);
    s += traps.empty() ? "-" : traps;
    s += " " + std::to_string(g.getBounces(yellow)) + "," + std::to_string(g.getBounces(blue)) + "," +
         std::to_string(g.getBounces(red)) + "," + std::to_string(g.getBounces(green));
    std::string flags = std::string(g.isEatingMove() ? "e" : "") + (g.isGoalMove() ? "g" : "");
    s += " " + (flags.empty() ? std::string("-") : flags);
    s += " ";
    if (g.gameOver()) {
        s += "G" + std::string(1, colour_letter(g.getColorWinner()));
    } else {
        s += "-";
    }
    return s;
}

}  // namespace bridge
