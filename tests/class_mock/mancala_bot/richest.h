// The bot's choice (tests/class_mock/mancala_bot): the pit with the most seeds.
#ifndef RICHEST_H
#define RICHEST_H

// `side` is a player's store then its pits 1..6; returns the pit (1..6) with the most seeds,
// the lowest such pit on a tie.
int richest_pit(const int side[7]);

#endif
