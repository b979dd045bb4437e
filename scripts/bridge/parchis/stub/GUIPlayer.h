// tablero bridge: SFML-free stand-in for the course simulator's GUIPlayer.h, written for tablero.
//
// The course's Parchis.h includes GUIPlayer.h, which pulls in the whole SFML GUI. The bridge
// only needs the game core, so build.sh puts this header in its place in a scratch copy of the
// checkout's include/ directory. It provides what the core itself uses from that include chain:
// the AIPlayer declaration and the `sleep(milliseconds(n))` call of Parchis::waitForPlayers.
#ifndef __GUI_PLAYER_H__
#define __GUI_PLAYER_H__

#include <chrono>
#include <thread>

#include "AIPlayer.h"
#include "Attributes.h"

class ParchisGUI;

namespace tablero_bridge_stub {
struct Duration {
    long long ms;
};
inline Duration milliseconds(long long ms) { return Duration{ms}; }
inline void sleep(Duration d) { std::this_thread::sleep_for(std::chrono::milliseconds(d.ms)); }
}  // namespace tablero_bridge_stub
using tablero_bridge_stub::milliseconds;
using tablero_bridge_stub::sleep;

#endif
