// tablero bridge (Conecta-4 BOOM): entry point of the bridged engine. Protocol lines leave on the
// original stdout; everything the course core and the student's code print (cout) goes to
// stderr, which referees only log, so the protocol stream stays clean.
#include <unistd.h>

#include <cstdio>
#include <iostream>

#include "frontend.h"

#ifdef TABLERO_BRIDGE_DEPTH_VAR
// build.sh turned the student's `const int NAME = N;` into a reference to this variable, so the
// Depth option and `go depth` set the student's own depth constant.
int tablero_bridge_depth = TABLERO_BRIDGE_DEPTH_DEFAULT;
#define TABLERO_BRIDGE_STR2(x) #x
#define TABLERO_BRIDGE_STR(x) TABLERO_BRIDGE_STR2(x)
#endif

int main() {
    int proto_fd = dup(1);
    std::FILE *proto = proto_fd >= 0 ? fdopen(proto_fd, "w") : nullptr;
    if (!proto || dup2(2, 1) < 0) {
        std::fprintf(stderr, "tablero bridge: cannot set up the protocol stream\n");
        return 1;
    }
    boom_bridge::Hooks hooks;
#ifdef TABLERO_BRIDGE_YEAR
    hooks.year = TABLERO_BRIDGE_YEAR;
#endif
#ifdef TABLERO_BRIDGE_DEPTH_VAR
    hooks.depth = &tablero_bridge_depth;
    hooks.depth_name = TABLERO_BRIDGE_STR(TABLERO_BRIDGE_DEPTH_VAR);
#endif
    return boom_bridge::run(std::cin, proto, hooks);
}
