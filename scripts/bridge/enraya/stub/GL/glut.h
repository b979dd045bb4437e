// tablero bridge (5-en-Raya Táctico): GLUT-free stand-in for <GL/glut.h>, written for tablero.
//
// The course simulator draws with OpenGL and GLUT, and its include/GUI.hpp includes <GL/glut.h>.
// The bridged engine never draws: build.sh compiles only the game core (src/Tablero.cpp), the
// student's AgenteEstudiante.cpp and tablero's adapter, and puts this header first on the include
// path, so a student's file that includes GUI.hpp (or ControladorJuego.hpp and, through it,
// nothing of GL) compiles on a machine without GL. It declares nothing of GL; it includes exactly
// the standard headers the real chain includes (freeglut 3.4 on Linux: glut.h -> freeglut_std.h
// -> <stdlib.h>; GL/gl.h -> GL/glext.h -> KHR/khrplatform.h -> <stdint.h>), so a player file
// that compiles inside the simulator compiles here unchanged, and one that does not compile
// there does not compile here either. scripts/bridge/enraya/check_stub_headers.sh checks that
// on a machine with freeglut's headers.
#ifndef TABLERO_BRIDGE_GLUT_STUB_H
#define TABLERO_BRIDGE_GLUT_STUB_H

#include <stdint.h>
#include <stdlib.h>

#endif
