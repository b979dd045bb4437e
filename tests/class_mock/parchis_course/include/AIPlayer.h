// MOCK of the course's AIPlayer.h for tablero's class tests, written for tablero: the player the
// students write, as the course hands it out (a constructor, move() and think()).
#ifndef MOCK_AIPLAYER_H
#define MOCK_AIPLAYER_H

#include "Parchis.h"

class AIPlayer : public Player {
protected:
    const int id;

public:
    AIPlayer(const string &name, const int id) : Player(name), id(id) {}
    virtual bool move();
    virtual void think(color &c_piece, int &id_piece, int &dice) const;
};

#endif
