// MOCK of the course simulator's API, written for tablero's CI (tests/bridge_parchis.rs).
//
// It mirrors ONLY the declarations the bridge adapter (scripts/bridge/parchis/) calls, with the
// course's enum values, so the adapter's notation tables and protocol front end compile and run
// without the course code. The "rules" below are NOT Parchís: they are a tiny fixed game that
// lets the test reach every branch of the front end (legal and illegal moves, passes, items,
// the end of the game). The real proof runs against the real course core (README).
#ifndef TABLERO_BRIDGE_MOCK_COURSE_API_H
#define TABLERO_BRIDGE_MOCK_COURSE_API_H

#include <memory>
#include <string>
#include <tuple>
#include <vector>

using namespace std;

// Same enumerators and values as the course's Attributes.h / Parchis.h / Board.h.
enum color { blue, red, green, yellow, none };
enum item_type {
    power = 100,
    star = 101,
    boo = 102,
    bullet = 103,
    red_shell = 104,
    blue_shell = 105,
    mushroom = 106,
    mega_mushroom = 107,
    shock = 108,
    horn = 109,
    banana = 110,
    not_an_item = -1
};
#define SKIP_TURN -9999
enum BoardConfig { ALL_AT_HOME, GROUPED };

class Parchis;

class Player {
protected:
    string name;
    int jugador;
    Parchis *actual;

public:
    explicit Player(const string &name) : name(name), jugador(0), actual(nullptr) {}
    virtual ~Player() {}
    virtual void perceive(Parchis &p);
    virtual bool move() = 0;
};

class AIPlayer : public Player {
protected:
    const int id;

public:
    AIPlayer(const string &name, const int id) : Player(name), id(id) {}
    virtual bool move();
    // Mock think(): id 0 moves piece 0 of the main colour with die = the mock depth variable;
    // id 1 passes with a 4; id 2 answers a dice value tablero cannot spell (3); id 3 plays a
    // star item; id 4 plays a move the mock rules forbid (piece 2).
    virtual void think(color &c_piece, int &id_piece, int &dice) const;
};

// Mock rules: player 0 (yellow, red) and player 1 (blue, green) alternate; a move of piece 0 or
// 1 of a mover's colour with any tablero die is legal; piece 2 never moves; a pass is legal only
// with a 4; the game ends after 10 moves (player 0 wins).
class Parchis {
public:
    Parchis(const BoardConfig &b, shared_ptr<Player> p1, shared_ptr<Player> p2);
    void setPlaygroundMode() { playground = true; }
    int getCurrentPlayerId() const { return player; }
    color getCurrentColor() const { return player == 0 ? yellow : blue; }
    bool gameOver() const { return played >= 10; }
    bool illegalMove() const { return illegal; }
    bool canSkipTurn(color c, int dice) const;
    const vector<tuple<color, int>> getAvailablePieces(color c, int dice) const;
    void movePiece(color c, int piece, int dice);

private:
    int player = 0;
    int played = 0;
    bool illegal = false;
    bool playground = false;
    vector<shared_ptr<Player>> players;
};

#endif
