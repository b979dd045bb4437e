// Perft with the 2025-26 course core of 5-en-Raya: counts the leaves of the move tree by the
// core's own successor function, Tablero::getSucesores() (a pass is one child, as in the core),
// so that tablero's perft can be checked and timed against it. This driver is tablero's; it only
// includes the course's Tablero.hpp and links its Tablero.cpp from a checkout the user supplies
// (scripts/enraya/perft_vs_core.sh builds it).
//
// Usage: core_perft DEPTH [ROWS COLS N | BOARD_FILE]
//   DEPTH        plies (0 or more)
//   ROWS COLS N  the board (the simulator's -f -c -n); default 9 9 5, the course's board
//   BOARD_FILE   a position in the simulator's -file format instead
// Prints the leaves at DEPTH; with -divide as the last argument, then one line per first move
// with its leaves, in the core's order ("f,c: N", or "pass: N" when the only child is a pass).

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "Tablero.hpp"

// At depth 1 the number of children is the number of leaves, as tablero counts (the children
// are still built: getSucesores() builds them all).
static unsigned long long perft(const Tablero& t, int depth) {
    if (depth == 0) return 1;
    std::vector<Tablero> children = t.getSucesores();
    if (depth == 1) return children.size();
    unsigned long long leaves = 0;
    for (const Tablero& c : children) leaves += perft(c, depth - 1);
    return leaves;
}

static bool number(const char* s, int* out) {
    char* end = nullptr;
    long v = std::strtol(s, &end, 10);
    if (end == s || *end != '\0' || v < 0 || v > 1000) return false;
    *out = static_cast<int>(v);
    return true;
}

int main(int argc, char** argv) {
    bool divide = argc > 1 && std::strcmp(argv[argc - 1], "-divide") == 0;
    if (divide) --argc;
    int depth = 0;
    if (argc < 2 || !number(argv[1], &depth)) {
        std::fprintf(stderr, "usage: %s DEPTH [ROWS COLS N | BOARD_FILE] [-divide]\n", argv[0]);
        return 2;
    }
    int rows = 9, cols = 9, n = 5;
    Tablero start(9, 9, 5);
    if (argc == 5) {
        if (!number(argv[2], &rows) || !number(argv[3], &cols) || !number(argv[4], &n) ||
            rows < 1 || cols < 1 || n < 1) {
            std::fprintf(stderr, "ROWS COLS N must be whole numbers from 1\n");
            return 2;
        }
        start = Tablero(rows, cols, n);
    } else if (argc == 3) {
        start = Tablero::cargarDesdeFichero(argv[2]);
    } else if (argc != 2) {
        std::fprintf(stderr, "usage: %s DEPTH [ROWS COLS N | BOARD_FILE] [-divide]\n", argv[0]);
        return 2;
    }
    std::printf("%llu\n", perft(start, depth));
    if (divide && depth >= 1) {
        auto placements = start.getSucesoresConMovimientos();
        for (const auto& child : placements) {
            std::printf("%d,%d: %llu\n", child.second.first, child.second.second,
                        perft(child.first, depth - 1));
        }
        std::vector<Tablero> children = start.getSucesores();
        if (placements.empty() && children.size() == 1) {
            std::printf("pass: %llu\n", perft(children[0], depth - 1));
        }
    }
    return 0;
}
