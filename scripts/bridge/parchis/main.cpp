// tablero bridge: entry point of the bridged engine. Protocol lines leave on the original
// stdout; everything the course core and the student's code print (cout) goes to stderr, which
// referees only log, so the protocol stream stays clean.
#include <unistd.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "frontend.h"

#ifdef TABLERO_BRIDGE_DEPTH_VAR
// build.sh turned the student's `const int NAME = N;` into a plain global so Depth can set it.
extern int TABLERO_BRIDGE_DEPTH_VAR;
#define TABLERO_BRIDGE_STR2(x) #x
#define TABLERO_BRIDGE_STR(x) TABLERO_BRIDGE_STR2(x)
#endif

// The state dump reads the 2022-23 core (items, piece types): not in a 2021-22, 2023-24 or 2024-25
// build.
#if !defined(TABLERO_BRIDGE_MOCK) && !defined(TABLERO_BRIDGE_2021) && !defined(TABLERO_BRIDGE_2023) && \
    !defined(TABLERO_BRIDGE_2024)
namespace bridge {
std::string dump_state(const Parchis &g);
}
#endif

int main() {
    int proto_fd = dup(1);
    std::FILE *proto = proto_fd >= 0 ? fdopen(proto_fd, "w") : nullptr;
    if (!proto || dup2(2, 1) < 0) {
        std::fprintf(stderr, "tablero bridge: cannot set up the protocol stream\n");
        return 1;
    }
    bridge::Hooks hooks;
    hooks.make_player = [](int id) { return std::make_shared<AIPlayer>("AIPlayer", id); };
#ifdef TABLERO_BRIDGE_DEPTH_VAR
    hooks.depth = &TABLERO_BRIDGE_DEPTH_VAR;
    hooks.depth_name = TABLERO_BRIDGE_STR(TABLERO_BRIDGE_DEPTH_VAR);
#endif
#if !defined(TABLERO_BRIDGE_MOCK) && !defined(TABLERO_BRIDGE_2021) && !defined(TABLERO_BRIDGE_2023) && \
    !defined(TABLERO_BRIDGE_2024)
    hooks.dump = bridge::dump_state;
#endif
    return bridge::run(std::cin, proto, hooks);
}
