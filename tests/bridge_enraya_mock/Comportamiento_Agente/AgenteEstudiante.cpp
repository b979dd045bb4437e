// MOCK student agent for tablero's CI (tests/bridge_enraya.rs), written for tablero: no search,
// only behaviours that exercise the bridge. Like a student's file it prints freely on cout (the
// bridge must keep that off the protocol stream). The heuristic id picks the behaviour:
//   0, 1  the first legal placement (1 also prints what the constructor got);
//   2     (-1, -1), as the course template answers when it finds nothing;
//   3     (0, 0) whatever the board (illegal once occupied, or when the phase wants odd columns);
//   4     waits, polling abortarBanda, until interrumpir() is called, then the last legal placement;
//   5     throws std::runtime_error;
//   6     writes through a null pointer (SIGSEGV);
//   7     recurses without end (a stack overflow);
//   8     the first legal placement after 300 ms (for go infinite, isready and stop while it thinks).
// Mode aleatorio answers the last legal placement, minimax and status the first.
#include "AgenteEstudiante.hpp"

#include <iostream>
#include <stdexcept>
#include <thread>

AgenteEstudiante::AgenteEstudiante(int id, int profundidadMax, double tiempoMax, int numHeuristica, ModoJuego modo)
    : id(id), profundidadMax(profundidadMax), tiempoMaxSegundos(tiempoMax), numHeuristica(numHeuristica), modo(modo),
      abortarBanda(false), llamadas(0) {}

namespace {
int recurse(int n) {
    volatile char frame[4096];
    frame[0] = static_cast<char>(n);
    return recurse(n + 1) + frame[0];
}
}  // namespace

std::pair<int, int> AgenteEstudiante::think(const Tablero &tablero) {
    abortarBanda = false;
    llamadas++;
    std::cout << "mock agent thinking: id " << id << " depth " << profundidadMax << " seconds " << tiempoMaxSegundos
              << " heuristic " << numHeuristica << " mode " << static_cast<int>(modo) << " call " << llamadas
              << std::endl;
    auto hijos = tablero.getSucesoresConMovimientos();
    std::pair<int, int> primera = hijos.empty() ? std::make_pair(-1, -1) : hijos.front().second;
    std::pair<int, int> ultima = hijos.empty() ? std::make_pair(-1, -1) : hijos.back().second;
    if (modo == ModoJuego::ALEATORIO) return ultima;
    if (modo != ModoJuego::INTELIGENTE) return primera;
    switch (numHeuristica) {
        case 2: return {-1, -1};
        case 3: return {0, 0};
        case 4:
            while (!abortarBanda) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            return ultima;
        case 5: throw std::runtime_error("mock failure in think()");
        case 6: {
            volatile int *p = nullptr;
            *p = 1;
            return primera;
        }
        case 7: return {recurse(0), 0};
        case 8: std::this_thread::sleep_for(std::chrono::milliseconds(300)); return primera;
        default: return primera;
    }
}
