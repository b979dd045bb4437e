// tests/class_mock/mancala_bot's choice, in a bot that aborts at its second move (a student's
// bot that crashes in the middle of a game). Built with ../mancala_bot/protocol.cpp.
#include <cstdlib>

#include "richest.h"

int richest_pit(const int side[7]) {
    static int moves = 0;
    if (++moves == 2) std::abort();
    int best = 1;
    for (int k = 2; k <= 6; k++) {
        if (side[k] > side[best]) best = k;
    }
    return best;
}
