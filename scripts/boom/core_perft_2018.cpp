// Perft of DesConecta-4 BOOM (2018-19) by the course core itself (class Environment of the
// course's Desconecta4Boom_linux/environment.cpp), for tests/traces/boom/perft_2018.txt (its
// README): tablero's perft from the same positions must count the same leaves. This driver is
// tablero's: it only includes the course's environment.h and links its environment.cpp from a
// checkout the user supplies (scripts/boom/perft_2018.sh builds and runs it).
//
// Each input line is `DEPTH [MOVE …]`: the moves (`1`..`7`, `boom`) are played from the start as
// the course's GUI plays them (AcceptAction, then ChangePlayer); the output line is the input
// line followed by a tab and the number of leaves DEPTH movements below. Children are made as the
// course's GenerateAllMoves makes them (assigned into a default-constructed Environment); a
// position where JuegoTerminado() holds has no movement, so counts no leaf below it.

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "environment.h"

namespace {

unsigned long long perft(const Environment& e, int depth) {
    if (depth == 0) return 1;
    if (e.JuegoTerminado()) return 0;
    bool act[8];
    e.possible_actions(act);
    unsigned long long n = 0;
    for (int a = 0; a < 8; ++a) {
        if (!act[a]) continue;
        if (depth == 1) {
            ++n;
            continue;
        }
        Environment c;
        c = e;
        c.AcceptAction(static_cast<Environment::ActionType>(a));
        c.ChangePlayer();
        n += perft(c, depth - 1);
    }
    return n;
}

}  // namespace

int main() {
    std::string line;
    while (std::getline(std::cin, line)) {
        std::istringstream in(line);
        int depth;
        if (!(in >> depth)) continue;
        Environment e;
        std::string m;
        while (in >> m) {
            int a = m == "boom" ? 7 : std::atoi(m.c_str()) - 1;
            bool act[8];
            e.possible_actions(act);
            if (a < 0 || a > 7 || !act[a] || e.JuegoTerminado()) {
                std::fprintf(stderr, "illegal move '%s' in: %s\n", m.c_str(), line.c_str());
                return 1;
            }
            e.AcceptAction(static_cast<Environment::ActionType>(a));
            e.ChangePlayer();
        }
        std::printf("%s\t%llu\n", line.c_str(), perft(e, depth));
    }
    return 0;
}
