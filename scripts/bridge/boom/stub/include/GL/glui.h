// tablero bridge (Conecta-4 BOOM): stand-in for the simulator's include/GL/glui.h, written for
// tablero. The course's environment.cpp includes it only for Environment::Show(), which draws
// the board with OpenGL; the bridge never draws, so these GL calls do nothing. It also gives
// environment.cpp the standard headers the real glui.h includes (<cstdlib>, <cstdio>,
// <cstring>, <string>, <vector>: RevisarTablero uses vector<bool> without including <vector>).
#ifndef GLUI_GLUI_H
#define GLUI_GLUI_H

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define GL_POLYGON 0x0009
inline void glBegin(unsigned) {}
inline void glEnd() {}
inline void glColor3f(float, float, float) {}
inline void glVertex2f(float, float) {}

#endif
