// The bot's choice (tests/class_mock/mancala_bot): the pit with the most seeds.
#include "richest.h"

int richest_pit(const int side[7]) {
    int best = 1;
    for (int k = 2; k <= 6; k++) {
        if (side[k] > side[best]) best = k;
    }
    return best;
}
