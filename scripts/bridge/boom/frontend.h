// tablero bridge (Conecta-4 BOOM): the protocol front end (the subset of tablero's protocol.md a
// referee needs) around a student's `Player` of the 2020-21 course simulator. Every `position` is
// replayed with the course's own `Environment`, so a move the referee sends that the course rules
// reject is reported, never hidden.
#ifndef TABLERO_BRIDGE_BOOM_FRONTEND_H
#define TABLERO_BRIDGE_BOOM_FRONTEND_H

#include <cstdio>
#include <istream>
#include <string>

namespace boom_bridge {

struct Hooks {
    // The student's search-depth constant when build.sh could expose it, else nullptr.
    int *depth = nullptr;
    std::string depth_name;
    std::string engine_name = "course Player (tablero bridge)";
    // The course year whose simulator the player was built on (build.sh --year): `uci` lists it
    // as the only value of the Year option, and `setoption name Year` takes only it.
    std::string year = "2020-21";
};

// tablero's spelling of a course action (0..6 = PUT1..PUT7 -> "1".."7", 7 = BOOM -> "boom");
// false for any other value.
bool format_action(int action, std::string &text);
// The course action of a tablero move ("1".."7", "boom" in any case); false for anything else.
bool parse_move(const std::string &text, int &action);

// Runs the protocol loop until `quit` or end of input; protocol lines go to `out` only.
int run(std::istream &in, std::FILE *out, const Hooks &hooks);

}  // namespace boom_bridge

#endif
