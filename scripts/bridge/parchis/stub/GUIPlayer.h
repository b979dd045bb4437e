// tablero bridge: SFML-free stand-in for the course simulator's GUIPlayer.h, written for tablero.
//
// The course's Parchis.h includes GUIPlayer.h, which pulls in the whole SFML GUI. The bridge
// only needs the game core, so build.sh puts this header in its place in a scratch copy of the
// checkout's include/ directory. It provides what that include chain gives the core and the
// student's AIPlayer.cpp:
//
// - every standard header the real chain includes, so a player file that compiles inside the
//   simulator compiles here unchanged (students do call sqrt without <cmath> or use std::list
//   without <list>). The list is the chain of the 2022-23 simulator (rbnuria/ParchisIA-23)
//   with SFML 2.5.1, read with `g++ -H`: where a course or SFML header includes a standard one.
//   Nothing else is included, so what does not compile in the simulator does not compile here.
// - `using namespace std;`, as GUIPlayer.h has;
// - the AIPlayer declaration and the `sleep(milliseconds(n))` of Parchis::waitForPlayers
//   (SFML's, here a nanosleep from <time.h>, which <ctime> of that chain already includes).
#ifndef __GUI_PLAYER_H__
#define __GUI_PLAYER_H__

// GUIPlayer.h and ParchisGUI.h themselves.
#include <fstream>
#include <iostream>
#include <list>
#include <math.h>
#include <queue>
// Button.h (a sprite header of ParchisGUI.h).
#include <memory>
// SFML 2.5.1 (System/FileInputStream.hpp, MemoryInputStream.hpp, Utf.hpp, String.hpp,
// Audio/SoundBuffer.hpp).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <locale>
#include <set>

#ifdef TABLERO_BRIDGE_2024
// 2024-25: this file stands in include/model/, the player's header in src/personal/ (as the
// real GUIPlayer.h includes it).
#include "../../src/personal/AIPlayer.h"
#else
#include "AIPlayer.h"
#endif
#include "Attributes.h"

using namespace std;

class ParchisGUI;

namespace tablero_bridge_stub {
struct Duration {
    long ms;
};
inline Duration milliseconds(long ms) { return Duration{ms}; }
inline void sleep(Duration d) {
    struct timespec t;
    t.tv_sec = d.ms / 1000;
    t.tv_nsec = (d.ms % 1000) * 1000000L;
    ::nanosleep(&t, nullptr);
}
}  // namespace tablero_bridge_stub
using tablero_bridge_stub::milliseconds;
using tablero_bridge_stub::sleep;

#endif
