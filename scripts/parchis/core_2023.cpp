// Games and perft counts of the 2023-24 course core of Parchís ("Parchís BOOM": class Parchis of
// the course's src/Parchis.cpp, with Board.cpp, Dice.cpp and PowerBar.cpp), printed in the
// formats of tests/traces/parchis/ (its README). This driver is tablero's: it only includes the
// course's headers and links its core from a checkout the user supplies
// (scripts/parchis/core_2023.sh builds it).
//
// Two modes:
//   core_2023 traces SEED GAMES [MAX_PLIES]   one JSON object per ply: the core's view after it
//   core_2023 perft                           each stdin line `DEPTH [MOVE …]` answered with the
//                                             line, a tab and the core's leaf count
//
// Moves are applied with Parchis::movePiece(colour, piece, die), as the course's players do. The
// legal list of a position is the core's own children order: generateNextMoveDescending (what the
// course's getChildren iterates, and what perft uses), one (colour, piece, die) per child. Every
// position also rebuilds that list from the public legality calls (for each die of
// getAvailableNormalDices(colour), last to first: the pieces getAvailablePieces returns, else a
// pass when canSkipTurn allows it); a difference stops the driver.
//
// The special die (the core's `power`, 100) is written `power` (`y0:power`, `pass:power`). What
// it does is not random: movePiece reads the mover's power bar (0 to 100, filled by its moves)
// and picks the effect from it, so a position's children are those of its state alone.
//
// The state string is tablero's 2023-24 form (src/games/parchis/mod.rs, "FEN", mode `b`),
// written here from the core's accessors. The core keeps `remember_6` private with no accessor:
// this file (only) is compiled with `private` read as `public` to print it; nothing in the core
// is changed. The last-move record's third part, the pieces the move sent home other than by a
// capture, is read off the board: the pieces not at home before the move and at home after it,
// the captured one excepted (the core's own lists of destroyed pieces repeat pieces and list
// some that stay where they are).
//
// Policies, by game number modulo 5: `random` (uniform among the legal moves), `greedy` (the move
// after which the mover's two colours are nearest the goal relative to the opponent's, by the
// core's distanceToGoal; ties broken at random), `mixed` (greedy or random, one half each),
// `first` (the first legal move three times in four; else random) and `hoard` (draws a power
// target from 0 to 100 and keeps the special die until the mover's bar reaches it, so that every
// effect of the bar is played; otherwise greedy or random, one half each). A game still running
// at MAX_PLIES is cut.

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#define private public
#include "Parchis.h"
#undef private

namespace {

// SplitMix64: the same stream on every machine (rand() is not).
struct Rng {
    unsigned long long s;
    unsigned long long next() {
        unsigned long long z = (s += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
    }
    size_t below(size_t n) { return static_cast<size_t>(next() % n); }
};

// tablero's colour order and letters: yellow, blue, red, green (the core's enum is blue, red,
// green, yellow).
const color COLOURS[4] = {yellow, blue, red, green};
// The special die's value in the core (item_type `power`).
const int POWER = 100;

char letter(color c) {
    switch (c) {
        case yellow: return 'y';
        case blue: return 'b';
        case red: return 'r';
        case green: return 'g';
        default: return '-';
    }
}

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "core_2023: %s\n", what.c_str());
    std::exit(1);
}

std::string box_text(const Box& b) {
    switch (b.type) {
        case home: return "h";
        case goal: return "g";
        case final_queue: return "q" + std::to_string(b.num);
        default: return "n" + std::to_string(b.num);
    }
}

// A piece's type and counter: none for a normal piece with counter 0, `:s<n>` for a star (the
// only type the 2023-24 core still gives), `:n<n>` for a normal one with a counter left.
std::string piece_state(const Piece& p) {
    int n = p.get_turns_left();
    switch (p.get_type()) {
        case normal_piece: return n == 0 ? std::string() : ":n" + std::to_string(n);
        case star_piece: return ":s" + std::to_string(n);
        default: fail("a piece of another type than normal or star");
    }
}

// One player's dice (the core keeps them under its main colour, yellow or blue) and power bar:
// `<base layer: digits, P for the special die>:<power>:<bonus layers, bottom to top,
// '+'-separated, or ->`.
std::string dice_text(const Parchis& p, color c, int player) {
    const std::vector<std::vector<int>>& layers = p.getDice().getAllDiceLayers(c);
    std::string base;
    for (int d : layers.at(0)) base += d == POWER ? std::string("P") : std::to_string(d);
    std::string forced;
    for (size_t i = 1; i < layers.size(); ++i) {
        if (layers[i].size() != 1 || (layers[i][0] != 10 && layers[i][0] != 20))
            fail("a bonus dice layer that is not one 10 or 20");
        if (!forced.empty()) forced += "+";
        forced += std::to_string(layers[i][0]);
    }
    return base + ":" + std::to_string(p.getPowerBar(player).getPower()) + ":" +
           (forced.empty() ? "-" : forced);
}

std::string fen(const Parchis& p, bool started, const std::string& destroyed) {
    std::string s = "b " + std::to_string(p.getCurrentPlayerId()) + " " +
                    std::to_string(p.getTurn()) + " ";
    for (int k = 0; k < 4; ++k) {
        if (k > 0) s += "/";
        const std::vector<Piece>& pieces = p.getBoard().getPieces(COLOURS[k]);
        for (size_t i = 0; i < pieces.size(); ++i) {
            if (i > 0) s += ",";
            s += box_text(pieces[i].get_box()) + piece_state(pieces[i]);
        }
    }
    s += " " + dice_text(p, yellow, 0);
    s += " " + dice_text(p, blue, 1);
    if (!p.getBoard().getTraps().empty()) fail("a banana trap on the board");
    s += " 000000 - ";
    for (int k = 0; k < 4; ++k) {
        if (k > 0) s += ",";
        s += std::to_string(p.getBounces(COLOURS[k]));
    }
    std::string flags;
    if (p.isEatingMove()) flags += "e";
    if (p.isGoalMove()) flags += "g";
    if (p.remember_6) flags += "r";
    if (p.bananed) fail("a bananed move");
    s += " " + (flags.empty() ? std::string("-") : flags) + " ";
    if (p.overBounce())
        s += "B" + std::to_string(p.getWinner());
    else if (p.getColorWinner() != none)
        s += std::string("G") + letter(p.getColorWinner());
    else
        s += "-";
    // The last-move record: the colour that moved a piece (a pass moves none), the colour of a
    // piece it captured, the pieces it sent home otherwise.
    s += " ";
    const std::tuple<color, int, int>& last = p.getLastAction();
    s += started && std::get<1>(last) != SKIP_TURN ? letter(std::get<0>(last)) : '-';
    s += "/";
    s += p.isEatingMove() ? letter(p.eatenPiece().first) : '-';
    s += "/" + destroyed;
    return s;
}

struct Move {
    color c;
    int piece;  // SKIP_TURN for a pass
    int die;
};

std::string move_name(const Move& m) {
    std::string d = m.die == POWER ? std::string("power") : std::to_string(m.die);
    if (m.piece == SKIP_TURN) return "pass:" + d;
    return std::string(1, letter(m.c)) + std::to_string(m.piece) + ":" + d;
}

// The core's children, in generateNextMoveDescending's order, with the move that makes each.
std::vector<Move> generated(const Parchis& p, std::vector<Parchis>* kids) {
    std::vector<Move> out;
    if (p.gameOver()) return out;
    color c = none;
    int piece = -1, die = -1;
    std::vector<int> dice = p.getAvailableNormalDices(p.getCurrentColor());
    for (;;) {
        Parchis next = p.generateNextMoveDescending(c, piece, die);
        if (next == p) break;
        out.push_back({c, piece, dice.at(die)});
        if (kids) kids->push_back(next);
    }
    return out;
}

// The same list from the public legality calls, checked against the generator's.
std::vector<Move> legal(const Parchis& p) {
    std::vector<Move> out;
    if (p.gameOver()) return out;
    color main = p.getCurrentColor();
    std::vector<int> dice = p.getAvailableNormalDices(main);
    for (size_t k = dice.size(); k-- > 0;) {
        int d = dice[k];
        std::vector<std::tuple<color, int>> pieces = p.getAvailablePieces(main, d);
        for (const auto& t : pieces) out.push_back({std::get<0>(t), std::get<1>(t), d});
        if (pieces.empty() && p.canSkipTurn(main, d)) out.push_back({main, SKIP_TURN, d});
    }
    std::vector<Move> gen = generated(p, nullptr);
    if (gen.size() != out.size()) fail("generateNextMoveDescending gives another number of moves");
    for (size_t k = 0; k < out.size(); ++k)
        if (gen[k].c != out[k].c || gen[k].piece != out[k].piece || gen[k].die != out[k].die)
            fail("generateNextMoveDescending differs from the legal list at move " + std::to_string(k));
    return out;
}

// Plays `m`; returns the colours (y b r g order, one letter a piece) of the pieces it sent home
// other than by a capture, or "-".
std::string apply(Parchis& p, const Move& m) {
    Parchis before(p);
    p.movePiece(m.c, m.piece, m.die);
    if (p.illegalMove()) fail("the core refused " + move_name(m));
    std::pair<color, int> eaten = p.isEatingMove() ? p.eatenPiece() : std::make_pair(none, -1);
    std::string out;
    for (color c : COLOURS)
        for (int i = 0; i < (int)p.getBoard().getPieces(c).size(); ++i)
            if (before.getBoard().getPiece(c, i).get_box().type != home &&
                p.getBoard().getPiece(c, i).get_box().type == home &&
                !(eaten.first == c && eaten.second == i))
                out += letter(c);
    return out.empty() ? "-" : out;
}

void line(int game, int ply, const char* policy, const Parchis& p, const std::string& move,
          const std::string& destroyed) {
    std::vector<Move> moves = legal(p);
    std::string list;
    for (const Move& m : moves) {
        if (!list.empty()) list += ",";
        list += "\"" + move_name(m) + "\"";
    }
    bool over = p.gameOver();
    std::string result = over ? (p.getWinner() == 0 ? "first" : "second") : "-";
    std::printf(
        "{\"game\":%d,\"ply\":%d,\"policy\":\"%s\",\"move\":%s,\"fen\":\"%s\",\"legal\":[%s],"
        "\"over\":%s,\"result\":\"%s\",\"player\":%d}\n",
        game, ply, policy, move.empty() ? "null" : ("\"" + move + "\"").c_str(),
        fen(p, ply > 0, destroyed).c_str(), list.c_str(), over ? "true" : "false",
        result.c_str(), p.getCurrentPlayerId());
}

// The mover's colours' total distance to the goal minus the opponent's (smaller is better).
int standing(const Parchis& p, int player) {
    int total = 0;
    for (int pl = 0; pl < 2; ++pl)
        for (color c : p.getPlayerColors(pl))
            for (int i = 0; i < (int)p.getBoard().getPieces(c).size(); ++i)
                total += (pl == player ? 1 : -1) * p.distanceToGoal(c, i);
    return total;
}

size_t greedy(const Parchis& p, const std::vector<Move>& moves, const std::vector<size_t>& among,
              Rng& rng) {
    int player = p.getCurrentPlayerId();
    std::vector<size_t> best;
    int best_score = 0;
    for (size_t k : among) {
        Parchis q(p);
        apply(q, moves[k]);
        int score = q.gameOver() ? (q.getWinner() == player ? -100000 : 100000) : standing(q, player);
        if (best.empty() || score < best_score) {
            best.clear();
            best_score = score;
        }
        if (score == best_score) best.push_back(k);
    }
    return best[rng.below(best.size())];
}

size_t pick(const Parchis& p, const std::vector<Move>& moves, int policy, Rng& rng, int& target) {
    std::vector<size_t> all;
    for (size_t k = 0; k < moves.size(); ++k) all.push_back(k);
    switch (policy) {
        case 0: return rng.below(moves.size());
        case 1: return greedy(p, moves, all, rng);
        case 2: return rng.below(2) == 0 ? greedy(p, moves, all, rng) : rng.below(moves.size());
        case 3: return rng.below(4) != 0 ? 0 : rng.below(moves.size());
        default: {
            int power = p.getPowerBar(p.getCurrentPlayerId()).getPower();
            std::vector<size_t> special, other;
            for (size_t k = 0; k < moves.size(); ++k)
                (moves[k].die == POWER && moves[k].piece != SKIP_TURN ? special : other).push_back(k);
            if (!special.empty() && (power >= target || other.empty())) {
                target = static_cast<int>(rng.below(101));
                return special[rng.below(special.size())];
            }
            const std::vector<size_t>& among = other.empty() ? all : other;
            return rng.below(2) == 0 ? greedy(p, moves, among, rng) : among[rng.below(among.size())];
        }
    }
}

unsigned long long perft(const Parchis& p, int depth) {
    if (depth == 0) return 1;
    std::vector<Parchis> next;
    generated(p, &next);
    if (depth == 1) return next.size();
    unsigned long long n = 0;
    for (const Parchis& q : next) n += perft(q, depth - 1);
    return n;
}

// The course's normal game: Parchis(GROUPED), the default of its main.cpp (three pieces a colour
// on its first three safe boxes; the board's items are gone in 2023-24).
Parchis start() { return Parchis(BoardConfig::GROUPED); }

int traces(unsigned long long seed, int games, int max_plies) {
    const char* names[5] = {"random", "greedy", "mixed", "first", "hoard"};
    for (int g = 0; g < games; ++g) {
        Rng rng{seed * 1000003ULL + static_cast<unsigned long long>(g)};
        int policy = g % 5;
        int target = static_cast<int>(rng.below(101));
        Parchis p = start();
        line(g, 0, names[policy], p, "", "-");
        for (int ply = 1; ply <= max_plies && !p.gameOver(); ++ply) {
            std::vector<Move> moves = legal(p);
            if (moves.empty()) fail("game " + std::to_string(g) + ": no legal move");
            Move m = moves[pick(p, moves, policy, rng, target)];
            std::string destroyed = apply(p, m);
            line(g, ply, names[policy], p, move_name(m), destroyed);
        }
    }
    return 0;
}

int perft_lines() {
    std::string text;
    while (std::getline(std::cin, text)) {
        std::istringstream words(text);
        int depth = -1;
        words >> depth;
        if (depth < 0) fail("bad perft line '" + text + "'");
        Parchis p = start();
        std::string w;
        while (words >> w) {
            std::vector<Move> moves = legal(p);
            auto it = std::find_if(moves.begin(), moves.end(),
                                   [&](const Move& m) { return move_name(m) == w; });
            if (it == moves.end()) fail("'" + w + "' is not legal in '" + text + "'");
            apply(p, *it);
        }
        std::printf("%s\t%llu\n", text.c_str(), perft(p, depth));
        std::fflush(stdout);
    }
    return 0;
}

}  // namespace

int main(int argc, char** argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "traces" && (argc == 4 || argc == 5))
        return traces(std::strtoull(argv[2], nullptr, 10), std::atoi(argv[3]),
                      argc == 5 ? std::atoi(argv[4]) : 2000);
    if (mode == "perft" && argc == 2) return perft_lines();
    std::fprintf(stderr, "usage: core_2023 traces SEED GAMES [MAX_PLIES] | core_2023 perft < lines\n");
    return 2;
}
