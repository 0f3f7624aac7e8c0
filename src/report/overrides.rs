//! How the reports show the `--set` overrides a run was made with (`experiment/overrides.rs`
//! applies them): the JSON map and the text line. A leaf the report modules share.

/// The overrides as the reports hold them: key as given → the value (a JSON number, boolean or
/// string, as read from the command line).
pub fn to_json(
    overrides: &[(String, toml::Value)],
) -> std::collections::BTreeMap<String, serde_json::Value> {
    overrides
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                serde_json::to_value(v).unwrap_or(serde_json::Value::Null),
            )
        })
        .collect()
}

/// The reports' line naming the overrides: `Overrides --set KEY=VALUE, …` (reports from before
/// overrides, or runs without, have none).
pub fn text_line(overrides: &std::collections::BTreeMap<String, serde_json::Value>) -> String {
    let all: Vec<String> = overrides
        .iter()
        .map(|(k, v)| match v {
            serde_json::Value::String(s) => format!("--set {k}={s}"),
            other => format!("--set {k}={other}"),
        })
        .collect();
    format!(
        "Overrides {} (a what-if: the file as written differs)\n",
        all.join(", ")
    )
}
