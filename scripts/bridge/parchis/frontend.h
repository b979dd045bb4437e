// tablero bridge: the protocol front end (the subset of tablero's protocol.md a referee needs)
// around a course AIPlayer. It replays every `position` with the course core, so a move the
// referee sends that the course rules reject is reported, never hidden.
#ifndef TABLERO_BRIDGE_FRONTEND_H
#define TABLERO_BRIDGE_FRONTEND_H

#include <cstdio>
#include <functional>
#include <istream>
#include <memory>
#include <string>

#include "course_api.h"

namespace bridge {

struct Hooks {
    // Builds the student's player with the given id (the course's heuristic selector).
    std::function<std::shared_ptr<AIPlayer>(int id)> make_player;
    // The student's search-depth variable when build.sh could expose it, else nullptr.
    int *depth = nullptr;
    std::string depth_name;
    // The course state as tablero's state string fields (for `d`); empty function: unavailable.
    std::function<std::string(const Parchis &)> dump;
    std::string engine_name = "course AIPlayer (tablero bridge)";
};

// Runs the protocol loop until `quit` or end of input; protocol lines go to `out` only.
int run(std::istream &in, std::FILE *out, const Hooks &hooks);

}  // namespace bridge

#endif
