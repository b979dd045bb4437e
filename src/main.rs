//! The `tablero` binary: everything is in [`tablero::front`].

fn main() -> std::process::ExitCode {
    tablero::front::run::main()
}
