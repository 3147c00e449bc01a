//! `pathvm diff OLD NEW --format flamegraph`: a differential flame graph
//! (inferno's differential mode, after Brendan Gregg's red/blue flame
//! graphs). Frames are the NEW profile's calling contexts, as wide as
//! their cost in NEW; a frame is red when its self cost grew from OLD to
//! NEW and blue when it shrank, the deeper the colour the larger the
//! change; a context only in OLD has no width. Equal profiles give a
//! graph without colour.

use std::io::Write;

use crate::export::{export_folded, ExportError};
use crate::profile::Profile;

/// Draws `metric`'s folded stacks of `new` coloured by their change from
/// `old` (see the module documentation), with `title` above.
///
/// Fails as [`crate::export_flamegraph`] does on either profile, and with
/// [`ExportError::NothingToDraw`] when NEW has no cost of the metric.
pub fn export_diff_flamegraph(
    old: &Profile,
    new: &Profile,
    metric: &str,
    title: &str,
    out: &mut dyn Write,
) -> Result<(), ExportError> {
    let mut before = Vec::new();
    export_folded(old, metric, &mut before)?;
    let mut after = Vec::new();
    export_folded(new, metric, &mut after)?;
    if after.is_empty() {
        return Err(ExportError::NothingToDraw {
            metric: metric.to_string(),
        });
    }
    let mut both = Vec::new();
    inferno::differential::from_readers(
        inferno::differential::Options::default(),
        before.as_slice(),
        after.as_slice(),
        &mut both,
    )?;
    let mut options = inferno::flamegraph::Options::default();
    options.title = title.to_string();
    options.count_name = metric.to_string();
    options.hash = true;
    inferno::flamegraph::from_reader(&mut options, both.as_slice(), out)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::tiny_profile;

    fn svg(old: &Profile, new: &Profile) -> String {
        let mut buf = Vec::new();
        export_diff_flamegraph(old, new, "instructions", "t", &mut buf).unwrap();
        String::from_utf8(buf).unwrap()
    }

    /// The fill colours of the frames whose title starts with `name`.
    fn fills(svg: &str, name: &str) -> Vec<String> {
        svg.split("<g>")
            .filter(|g| g.contains(&format!("<title>{name} (")))
            .filter_map(|g| {
                let at = g.find("fill=\"")? + 6;
                Some(g[at..at + g[at..].find('"')?].to_string())
            })
            .collect()
    }

    #[test]
    fn grown_frames_are_red_and_equal_ones_are_not_coloured() {
        let old = tiny_profile();
        let mut new = tiny_profile();
        // c under b: 100 -> 150 instructions.
        new.contexts.self_cost[5 * 2] = 150;
        new.totals[0] += 50;
        let s = svg(&old, &new);
        let c = fills(&s, "c");
        assert_eq!(c.len(), 2, "{s}");
        assert!(c.iter().any(|f| f.starts_with("rgb(255,")), "{c:?}");
        let same = svg(&old, &old);
        for f in fills(&same, "c") {
            assert_eq!(f, "rgb(250,250,250)", "{same}");
        }
        let err = export_diff_flamegraph(&old, &new, "cycles", "t", &mut Vec::new()).unwrap_err();
        assert!(
            err.to_string().starts_with("unknown metric `cycles`"),
            "{err}"
        );
    }
}
