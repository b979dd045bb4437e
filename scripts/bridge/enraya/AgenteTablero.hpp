// tablero bridge (5-en-Raya Táctico, course 2025-26): an agent for the course simulator that asks
// a tablero engine for every move — tablero inside the simulator, against the students' agents,
// the ninjas or a human. Written for tablero; it uses only the simulator's public Agente and
// Tablero API. To wire it in (docs/bridge-enraya.md, "tablero inside the simulator"): copy this
// file, notation.h and engine_process.h to the checkout's include/ and AgenteTablero.cpp to its
// src/, add src/AgenteTablero.cpp to FUENTES in CMakeLists.txt, and in src/main.cpp include
// "AgenteTablero.hpp" and let crearAgente build it:
//     if (tipo == "tablero") return std::make_shared<AgenteTablero>(id, profundidad, tiempoMax);
// Then `./n_en_raya -p1 inteligente -p2 tablero -nogui`.
//
// The engine command is $TABLERO_CMD (default `tablero`, run with /bin/sh -c). Every think()
// sends `position fen <the core's state>` and `go depth <-d>` ($TABLERO_GO replaces the go line,
// e.g. `go movetime 2000`); $TABLERO_OPTIONS (`Name=Value;Name=Value`) become setoptions. When
// the simulator's time limit (-t) runs out, interrumpir() sends `stop` and tablero answers at once.
//
// Cross-check: before every go, tablero's own view of the position (its `fen:` of `d`, its
// `moves`) is compared with the course core's (the state string read from the getters, the
// moves of getSucesoresConMovimientos). A difference, or a move tablero plays that the core
// refuses, is printed on stderr as `AgenteTablero: RULE DISAGREEMENT: …` with both views. The
// simulator cannot take a refused cell (it asks again, and an off-board one is read outside the
// board), so then the core's first legal placement is played instead and counted.
#ifndef AGENTE_TABLERO_HPP
#define AGENTE_TABLERO_HPP

#include <atomic>
#include <memory>
#include <string>
#include <utility>

#include "Agente.hpp"

namespace enraya {
class EngineProcess;
}

class AgenteTablero : public Agente {
public:
    AgenteTablero(int id, int profundidad, double tiempoMax = 5.0);
    ~AgenteTablero() override;

    std::pair<int, int> think(const Tablero &tablero) override;
    bool tieneLimiteDeTiempo() const override { return true; }
    void interrumpir() override;

    // Rule disagreements seen so far (positions or moves where tablero and the core differ).
    int desacuerdos() const { return disagreements_; }

private:
    int id_;
    int depth_;
    std::unique_ptr<enraya::EngineProcess> engine_;
    int rows_ = 0, cols_ = 0, inarow_ = 0;  // the board size tablero was set up for
    std::atomic<bool> searching_{false};
    int disagreements_ = 0;

    bool start_engine(const Tablero &t);
    void disagreement(const std::string &what);
};

#endif
