// MOCK of the course's environment.cpp for tablero's CI (see environment.h): not Conecta-4 BOOM.
// Like the real file it includes "include/GL/glui.h" for Show() (build.sh must put its stub
// there), uses vector<bool> without including <vector> (the real glui.h provides it), and
// Environment::operator= falls off its end without `return *this;` (build.sh must add it).
//
// Mock rules: players alternate after every movement; a column holds 2 pieces; a player holds
// a bomb after its second PUT, and BOOM only drops that bomb; the game ends after 10 movements
// and player 1 wins it.
#include <iostream>

#include "environment.h"
#include "include/GL/glui.h"

Environment::Environment() {
    maze_ = new char *[7];
    maze_[0] = new char[49];
    for (int i = 1; i < 7; i++) maze_[i] = maze_[i - 1] + 7;
    for (int i = 0; i < 49; i++) maze_[0][i] = 0;
    for (int c = 0; c < 7; c++) tope_[c] = 0;
    puts_[0] = puts_[1] = puts_[2] = 0;
    explosion[0] = explosion[1] = explosion[2] = false;
    jugador_activo_ = 1;
    n_jugada = 1;
    n_movimiento = 1;
}

Environment::~Environment() {
    delete[] maze_[0];
    delete[] maze_;
}

Environment::Environment(const Environment &env) : Environment() { *this = env; }

Environment &Environment::operator=(const Environment &env)
{
    if (this == &env) return *this;
    for (int i = 0; i < 49; i++) maze_[0][i] = env.maze_[0][i];
    for (int c = 0; c < 7; c++) tope_[c] = env.tope_[c];
    for (int j = 0; j < 3; j++) {
        puts_[j] = env.puts_[j];
        explosion[j] = env.explosion[j];
    }
    jugador_activo_ = env.jugador_activo_;
    n_jugada = env.n_jugada;
    n_movimiento = env.n_movimiento;
}

void Environment::Show(int w, int h) {
    glBegin(GL_POLYGON);
    glColor3f(0, 1, 0);
    glVertex2f(w * 0.5, h * 0.5);
    glEnd();
}

void Environment::AcceptAction(ActionType accion) {
    if (accion == BOOM) {
        explosion[jugador_activo_] = false;
    } else {
        maze_[tope_[accion]][accion] = jugador_activo_;
        tope_[accion]++;
        if (++puts_[jugador_activo_] == 2) explosion[jugador_activo_] = true;
    }
    n_movimiento++;
}

void Environment::ChangePlayer() {
    if (jugador_activo_ == 1) {
        jugador_activo_ = 2;
    } else {
        jugador_activo_ = 1;
        n_jugada++;
    }
}

int Environment::possible_actions(bool *act) const {
    int n = 0;
    for (int c = 0; c < 7; c++) n += (act[c] = tope_[c] < 2);
    n += (act[7] = explosion[jugador_activo_]);
    return n;
}

bool Environment::JuegoTerminado() const { return n_movimiento > 10; }

int Environment::RevisarTablero() const {
    vector<bool> over;
    over.push_back(JuegoTerminado());
    return over[0] ? 1 : 0;
}
