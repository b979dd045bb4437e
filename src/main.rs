//! The `tablero` binary: parses the command line and dispatches.

fn main() {
    env_logger::init();
}
