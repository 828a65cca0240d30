//! A turn's legal actions listed once, as shared Python objects: the one home of
//! the listing cache behind `legal_actions` and `apply_action` of the bindings that
//! keep an action table (Guandan's deal, Tractor's round). Every call of a turn hands
//! out the same objects, and an action given back is found by identity before any
//! text is read.

use pyo3::prelude::*;
use pyo3::types::PyList;

/// The turn's legal actions as listed once: ids in listing order and their actions.
pub(crate) struct Listed {
    pub(crate) ids: Vec<u32>,
    pub(crate) actions: Vec<Py<PyAny>>,
}

impl Listed {
    /// The listing of `ids`, each id's action made (or fetched) by `object`.
    pub(crate) fn new(
        ids: Vec<u32>,
        mut object: impl FnMut(u32) -> PyResult<Py<PyAny>>,
    ) -> PyResult<Self> {
        let actions = ids.iter().map(|&id| object(id)).collect::<PyResult<_>>()?;
        Ok(Listed { ids, actions })
    }

    /// Where `action` stands in the listing when it is one of the listed objects.
    pub(crate) fn position_of(&self, action: &Bound<'_, PyAny>) -> Option<usize> {
        self.actions.iter().position(|o| o.is(action))
    }

    /// The listed actions as a new list.
    pub(crate) fn to_list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.actions.iter().map(|o| o.bind(py)))
    }

    /// A copy sharing the action objects.
    pub(crate) fn clone_ref(&self, py: Python<'_>) -> Self {
        Listed {
            ids: self.ids.clone(),
            actions: self.actions.iter().map(|o| o.clone_ref(py)).collect(),
        }
    }
}
