//! cardkit._core: PyO3 bindings of cardkit-engine and nothing else.
//!
//! Each submodule converts Python arguments into owned engine values, calls the
//! engine and maps errors through `errors::to_py`.

use pyo3::prelude::*;

mod betting;
mod cards;
mod chinese_poker;
mod climbing;
mod errors;
mod interrupt;
mod poker;
mod testing;
mod trick;

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    cards::register(m)?;
    poker::register(m)?;
    chinese_poker::register(m)?;
    climbing::register(m)?;
    trick::register(m)?;
    betting::register(m)?;
    testing::register(m)?;
    Ok(())
}
