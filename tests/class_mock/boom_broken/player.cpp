// A Conecta-4 BOOM player file that does not compile, for tests/class.rs: the course's player
// interface (as tests/bridge_boom_mock/player.h declares it) with a call to a function that is
// declared nowhere.
#include "player.h"

#include "environment.h"

Environment::ActionType Player::Think() {
    return static_cast<Environment::ActionType>(best_column_ever(actual_));
}
