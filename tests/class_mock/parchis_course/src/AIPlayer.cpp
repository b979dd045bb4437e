// MOCK of the course's AIPlayer.cpp for tablero's class tests, written for tablero: the player
// moves piece 0 of its colour with a 1.
#include "AIPlayer.h"

bool AIPlayer::move() { return false; }

void AIPlayer::think(color &c_piece, int &id_piece, int &dice) const {
    c_piece = actual->getCurrentColor();
    id_piece = 0;
    dice = 1;
}
