// MOCK of the 2020-21 Conecta-4 BOOM simulator's environment.h, written for tablero's CI
// (tests/bridge_boom.rs). It mirrors ONLY the declarations the bridge (scripts/bridge/boom/)
// uses, with the course's action numbering, so build.sh and the adapter compile and run
// without the course code. The "rules" in environment.cpp are NOT Conecta-4 BOOM: a tiny fixed
// game that reaches every branch of the front end. The real proof runs against the real core
// (docs/bridge-boom.md).
#ifndef ENVIRONMENT__
#define ENVIRONMENT__

#include <fstream>
#include <string>
using namespace std;

class Environment {
public:
    // Same enumerators and values as the course's ActionType.
    enum ActionType { PUT1, PUT2, PUT3, PUT4, PUT5, PUT6, PUT7, BOOM };

    Environment();
    ~Environment();
    Environment(const Environment &env);
    Environment &operator=(const Environment &env);

    void Show(int, int);
    void AcceptAction(ActionType accion);
    void ChangePlayer();
    int possible_actions(bool *VecAct) const;
    int JugadorActivo() const { return jugador_activo_; }
    int N_Jugada() const { return n_jugada; }
    bool Put_FichaBOOM_now() const { return n_jugada % 3 == 0; }
    bool Have_BOOM(int jugador) const { return explosion[jugador]; }
    char See_Casilla(int row, int col) const { return maze_[row][col]; }
    bool JuegoTerminado() const;
    int RevisarTablero() const;

private:
    char **maze_;
    int tope_[7];
    int puts_[3];
    bool explosion[3];
    int jugador_activo_;
    int n_jugada;
    int n_movimiento;
};

#endif
