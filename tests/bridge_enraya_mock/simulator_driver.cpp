// A mock of the course simulator's game loop for tests/bridge_enraya.rs, written for tablero: it
// plays AgenteTablero (scripts/bridge/enraya/) on the mock core as ControladorJuego::paso does —
// a player without a legal placement passes without being asked, a refused cell is not played
// and the agent is asked again (at most three times here) — and reports what happened.
//
//   simulator_driver game ROWS COLUMNS INAROW   AgenteTablero against AgenteTablero to the end
//   simulator_driver interrupt                  think() on a thread, interrumpir() after 300 ms
#include <chrono>
#include <future>
#include <iostream>
#include <memory>
#include <string>
#include <thread>

#include "AgenteTablero.hpp"
#include "Tablero.hpp"
#include "notation.h"

int main(int argc, char **argv) {
    std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "game" && argc == 5) {
        Tablero t(std::stoi(argv[2]), std::stoi(argv[3]), std::stoi(argv[4]));
        std::shared_ptr<AgenteTablero> p[3] = {nullptr, std::make_shared<AgenteTablero>(1, 2, 5.0),
                                               std::make_shared<AgenteTablero>(2, 2, 5.0)};
        int plies = 0, refused = 0;
        while (t.comprobarGanador() == 0 && plies < 200) {
            if (!t.tieneMovimientosValidos()) {
                std::cout << "J" << t.getJugadorTurno() << " pass" << std::endl;
                t.pasarTurno();
                plies++;
                continue;
            }
            int j = t.getJugadorTurno();
            std::pair<int, int> m = p[j]->think(t);
            if (!t.ponerPieza(m.first, m.second, j)) {
                std::cout << "J" << j << " refused " << m.first << "," << m.second << std::endl;
                if (++refused >= 3) break;
                continue;
            }
            std::cout << "J" << j << " " << m.first << "," << m.second << std::endl;
            plies++;
        }
        std::cout << "result " << enraya::result_text(t) << " fen " << enraya::fen(t) << " disagreements "
                  << p[1]->desacuerdos() + p[2]->desacuerdos() << std::endl;
        return 0;
    }
    if (mode == "interrupt") {
        Tablero t(3, 3, 3);
        AgenteTablero a(1, 2, 5.0);
        auto t0 = std::chrono::steady_clock::now();
        auto fut = std::async(std::launch::async, [&] { return a.think(t); });
        std::this_thread::sleep_for(std::chrono::milliseconds(300));
        a.interrumpir();
        std::pair<int, int> m = fut.get();
        long long ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0).count();
        std::cout << "returned " << m.first << "," << m.second << " after " << ms << " ms" << std::endl;
        return 0;
    }
    std::cerr << "usage: simulator_driver game ROWS COLUMNS INAROW | simulator_driver interrupt" << std::endl;
    return 2;
}
