//! cardkit._core: PyO3 bindings of cardkit-engine and nothing else.
//!
//! Each submodule converts Python arguments into owned engine values, calls the
//! engine and maps errors through `errors::to_py`.

use pyo3::prelude::*;

mod aec;
mod args;
mod betting;
mod bridge_dd;
mod cards;
mod chinese_poker;
mod climbing;
mod errors;
mod guandan;
mod interrupt;
mod listing;
mod lock;
mod poker;
mod testing;
mod tractor;
mod trick;
mod vector;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // Bench-only and test-only bindings live in private submodules, outside the
    // typed public surface (`__all__`, `_core.pyi`) and free to change.
    let bench = PyModule::new(py, "_bench")?;
    let test = PyModule::new(py, "_test")?;
    cards::register(m)?;
    poker::register(m)?;
    chinese_poker::register(m, &bench)?;
    climbing::register(m, &bench)?;
    guandan::register(m, &bench)?;
    trick::register(m, &bench)?;
    tractor::register(m, &bench)?;
    betting::register(m)?;
    bridge_dd::register(m)?;
    vector::register(m)?;
    aec::register(m)?;
    lock::register(m)?;
    testing::register(&test)?;
    let modules = py.import("sys")?.getattr("modules")?;
    for sub in [bench, test] {
        // Registered in `sys.modules` so `from cardkit._core._bench import ...` works.
        modules.set_item(format!("cardkit._core.{}", sub.name()?), &sub)?;
        m.setattr(sub.name()?, &sub)?;
    }
    Ok(())
}
