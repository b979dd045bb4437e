// MOCK of the 2022-23 Parchís simulator's game core for tablero's class tests (tests/class.rs),
// written for tablero: the declarations scripts/bridge/parchis/ calls (the game, the board's
// pieces, items and traps, the dice layers, the Player base class), with the course's enum
// values, all defined inline. The rules are MADE UP (not Parchís): the two players alternate,
// pieces 0 and 1 of the mover's colours may move with any die, and the game ends after ten
// moves. It is only for builds: `tablero class --build-only` checks which headers a
// submission is built with.
#ifndef MOCK_PARCHIS_H
#define MOCK_PARCHIS_H

#include <algorithm>
#include <iostream>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

using namespace std;

enum color { blue, red, green, yellow, none };
enum item_type {
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
enum box_type { normal, home, goal, final_queue };
enum special_type { normal_piece, star_piece, boo_piece, mega_piece, small_piece, bananed_piece };

struct Box {
    int num = 0;
    box_type type = home;
    color col = none;
};

class Piece {
public:
    Box get_box() const { return Box(); }
    special_type get_type() const { return normal_piece; }
    int get_turns_left() const { return 0; }
};

struct SpecialItem {
    item_type type = star;
    Box box;
};

class BoardTrap {
public:
    Box getBox() const { return Box(); }
};

class Board {
public:
    const vector<Piece> &getPieces(color) const { return pieces; }
    const vector<SpecialItem> &getSpecialItems() const { return items; }
    const vector<BoardTrap> &getTraps() const { return traps; }

private:
    vector<Piece> pieces = vector<Piece>(4);
    vector<SpecialItem> items;
    vector<BoardTrap> traps;
};

class Dice {
public:
    const vector<vector<int>> &getAllDiceLayers(color) const { return layers; }

private:
    vector<vector<int>> layers = {{1, 2, 4, 5, 6}};
};

class Parchis;

class Player {
protected:
    string name;
    int jugador = 0;
    Parchis *actual = nullptr;

public:
    explicit Player(const string &name) : name(name) {}
    virtual ~Player() {}
    virtual void perceive(Parchis &p);
    virtual bool move() = 0;
};

class Parchis {
public:
    Parchis(const BoardConfig &, shared_ptr<Player> p1, shared_ptr<Player> p2) : players{p1, p2} {}
    void setPlaygroundMode() { playground = true; }
    bool isPlaygroundMode() const { return playground; }
    int getCurrentPlayerId() const { return player; }
    color getCurrentColor() const { return player == 0 ? yellow : blue; }
    int getTurn() const { return played + 1; }
    bool gameOver() const { return played >= 10; }
    bool illegalMove() const { return illegal; }
    bool isEatingMove() const { return false; }
    bool isGoalMove() const { return false; }
    color getColorWinner() const { return yellow; }
    int getBounces(color) const { return 0; }
    const Board &getBoard() const { return board; }
    const Dice &getDice() const { return dice; }
    bool canSkipTurn(color, int) const { return false; }
    const vector<tuple<color, int>> getAvailablePieces(color c, int) const {
        if (gameOver()) return {};
        return {make_tuple(c, 0), make_tuple(c, 1)};
    }
    void movePiece(color, int piece, int) {
        if (piece != 0 && piece != 1) {
            illegal = true;
            return;
        }
        played++;
        player = 1 - player;
    }

private:
    int player = 0;
    int played = 0;
    bool illegal = false;
    bool playground = false;
    Board board;
    Dice dice;
    vector<shared_ptr<Player>> players;
};

inline void Player::perceive(Parchis &p) {
    actual = &p;
    jugador = p.getCurrentPlayerId();
}

#endif
