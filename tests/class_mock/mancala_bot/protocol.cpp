// A course-protocol Mancala bot written for tablero's CI (tests/class.rs): the line protocol of
// the course's referee (docs/bridge-mancala.md) read word by word, one line answered per
// request, as the course's SimulatorLink does. The move comes from richest.cpp.
#include <iostream>
#include <string>

#include "richest.h"

int main() {
    std::string cmd, last;
    while (std::cin >> cmd) {
        if (cmd == "PING") {
            last = "PONG";
        } else if (cmd == "GETNAME") {
            last = "richest";
        } else if (cmd == "TIMEOUT") {
            std::string ms;
            std::cin >> ms;  // the previous answer is repeated, as the course's link does
        } else if (cmd == "SETPLAYER") {
            std::string p;
            std::cin >> p;
            last = "OK";
        } else if (cmd == "GETMOVE") {
            int n = 0, turn = 0;
            std::cin >> n;
            for (int i = 0; i < n; i++) {
                std::string m;
                std::cin >> m;
            }
            std::cin >> turn;
            int board[2][7];
            for (auto &side : board)
                for (int &v : side) std::cin >> v;
            last = std::to_string(richest_pit(board[turn]));
        } else if (cmd == "END") {
            std::cout << "OK" << std::endl;
            return 0;
        }
        std::cout << last << std::endl;
    }
    return 0;
}
