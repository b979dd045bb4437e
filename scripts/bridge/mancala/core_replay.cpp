// Replays Mancala games in the course's own game core (GameState::simulateMove of the 2017-18
// simulator, compiled from a course checkout) and prints the core's view after every ply, in
// tablero's notation, for check_records.py to compare with tablero's rules.
//
// Input: one game per line, the pits played from the start the course's referee uses (J1 to
// move, 4 seeds in each of the 12 pits). Output: one line per game,
//   <fen0> [<legal0>] | <fen1> [<legal1>] | ...
// where fen is tablero's state string (each player's pits 6..1, ':', store; '/' between J1 and
// J2; S or N to move) and legal the pits the core lets the mover sow (non-empty pits while the
// state is not final). A move the core would refuse ends the line with "ILLEGAL <pit>".
#include <iostream>
#include <sstream>
#include <string>

#include "GameState.h"

// GameState keeps its board private and names SimulatorLink its friend; this program links no
// other SimulatorLink, so this one may build the start position.
class SimulatorLink {
 public:
  static GameState start() {
    GameState s;
    s.turno = J1;
    for (int p = 0; p < 2; p++) {
      s.piezas[p][0] = 0;
      for (int k = 1; k <= 6; k++) s.piezas[p][k] = 4;
    }
    return s;
  }
};

static std::string view(const GameState &s) {
  std::ostringstream o;
  for (int p = 0; p < 2; p++) {
    if (p == 1) o << '/';
    for (int k = 6; k >= 1; k--) {
      o << (int)s.getSeedsAt((Player)p, (Position)k);
      if (k > 1) o << ',';
    }
    o << ':' << (int)s.getSeedsAt((Player)p, GRANERO);
  }
  o << ' ' << (s.getCurrentPlayer() == J1 ? 'S' : 'N') << " [";
  if (!s.isFinalState()) {
    bool first = true;
    for (int k = 1; k <= 6; k++) {
      if (s.getSeedsAt(s.getCurrentPlayer(), (Position)k) > 0) {
        o << (first ? "" : " ") << k;
        first = false;
      }
    }
  }
  o << ']';
  return o.str();
}

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    std::istringstream in(line);
    GameState s = SimulatorLink::start();
    std::cout << view(s);
    int m;
    while (in >> m) {
      if (s.isFinalState() || m < 1 || m > 6 ||
          s.getSeedsAt(s.getCurrentPlayer(), (Position)m) == 0) {
        std::cout << " | ILLEGAL " << m;
        break;
      }
      s = s.simulateMove((Move)m);
      std::cout << " | " << view(s);
    }
    std::cout << '\n';
  }
  return 0;
}
