// MOCK of the course's AIPlayer.h for tests/bridge_parchis.rs (written for tablero): like the
// real one it includes only Attributes.h (the real one also Player.h, which adds nothing
// standard) and declares think().
#ifndef __AI_PLAYER_H__
#define __AI_PLAYER_H__

#include "Attributes.h"

class Parchis;

class AIPlayer {
public:
    explicit AIPlayer(int id) : id(id) {}
    void think(color &c_piece, int &id_piece, int &dice) const;

protected:
    const int id;
};

#endif
