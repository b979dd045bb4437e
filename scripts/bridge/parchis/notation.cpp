// tablero bridge: the notation conversion tables (see notation.h).
#include "notation.h"

#include <cstring>

namespace bridge {

namespace {

// Course colour of each tablero colour letter (tablero's order y, b, r, g).
struct ColourRow {
    char letter;
    color c;
};
const ColourRow COLOURS[] = {{'y', yellow}, {'b', blue}, {'r', red}, {'g', green}};

// Course item codes (item_type) of tablero's item names.
struct ItemRow {
    const char *name;
    int code;
};
#ifdef TABLERO_BRIDGE_2021
// The 2021-22 simulator (build.sh --year 2021-22) has no items and each colour throws 1 to 6.
const ItemRow ITEMS[] = {{nullptr, 0}};
const int NUMBER_DICE[] = {1, 2, 3, 4, 5, 6, 10, 20};
#elif defined(TABLERO_BRIDGE_2023)
// The 2023-24 simulator (build.sh --year 2023-24) has no items; its special die is the course's
// code `power` (100), written `power` in tablero (what it does, the core's power bar decides).
const ItemRow ITEMS[] = {{"power", power}};
const int NUMBER_DICE[] = {1, 2, 4, 5, 6, 10, 20};
#elif defined(TABLERO_BRIDGE_2024)
// The 2024-25 simulator (build.sh --year 2024-25) has no items; its yin-yang face is the course's
// code `yinyang` (69), written `yinyang` in tablero.
const ItemRow ITEMS[] = {{"yinyang", yinyang}};
const int NUMBER_DICE[] = {1, 2, 4, 5, 6, 10, 20};
#else
const ItemRow ITEMS[] = {
    {"star", star},         {"boo", boo},     {"bullet", bullet},       {"redshell", red_shell},
    {"blueshell", blue_shell}, {"mushroom", mushroom}, {"megamushroom", mega_mushroom},
    {"shock", shock},       {"horn", horn},   {"banana", banana},
};
const int NUMBER_DICE[] = {1, 2, 4, 5, 6, 10, 20};
#endif

bool parse_die(const std::string &t, int &dice) {
    for (int d : NUMBER_DICE) {
        if (t == std::to_string(d)) {
            dice = d;
            return true;
        }
    }
    for (const ItemRow &it : ITEMS) {
        if (it.name && t == it.name) {
            dice = it.code;
            return true;
        }
    }
    return false;
}

}  // namespace

char colour_letter(color c) {
    for (const ColourRow &r : COLOURS) {
        if (r.c == c) return r.letter;
    }
    return '?';
}

std::string die_text(int dice) {
    for (int d : NUMBER_DICE) {
        if (d == dice) return std::to_string(d);
    }
    for (const ItemRow &it : ITEMS) {
        if (it.name && it.code == dice) return it.name;
    }
    return "";
}

bool parse_tablero_move(const std::string &text, color pass_colour, CourseMove &out, std::string &err) {
    std::size_t colon = text.find(':');
    if (colon == std::string::npos) {
        err = "bad move '" + text + "': expected <piece>:<die>, e.g. y0:5";
        return false;
    }
    std::string piece = text.substr(0, colon), die = text.substr(colon + 1);
    int dice = 0;
    if (!parse_die(die, dice)) {
        err = "bad move '" + text + "': unknown die '" + die + "' (1 2 4 5 6 10 20 or an item name)";
        return false;
    }
    if (piece == "pass") {
        out = CourseMove{pass_colour, SKIP_TURN, dice};
        return true;
    }
    if (piece.size() != 2 || piece[1] < '0' || piece[1] > '3') {
        err = "bad move '" + text + "': piece must be y/b/r/g + index 0..3 or 'pass'";
        return false;
    }
    for (const ColourRow &r : COLOURS) {
        if (r.letter == piece[0]) {
            out = CourseMove{r.c, piece[1] - '0', dice};
            return true;
        }
    }
    err = "bad move '" + text + "': piece must be y/b/r/g + index 0..3 or 'pass'";
    return false;
}

bool format_tablero_move(const CourseMove &m, std::string &out, std::string &err) {
    std::string die = die_text(m.dice);
    if (die.empty()) {
        err = "dice value " + std::to_string(m.dice) + " has no tablero spelling";
        return false;
    }
    if (m.id == SKIP_TURN) {
        out = "pass:" + die;
        return true;
    }
    char letter = colour_letter(m.c);
    if (letter == '?') {
        err = "colour " + std::to_string(static_cast<int>(m.c)) + " is not a piece colour";
        return false;
    }
    if (m.id < 0 || m.id > 3) {
        err = "piece id " + std::to_string(m.id) + " is outside 0..3";
        return false;
    }
    out = std::string(1, letter) + std::to_string(m.id) + ":" + die;
    return true;
}

}  // namespace bridge
