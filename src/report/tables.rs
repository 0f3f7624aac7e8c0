//! The cluster's tables (`[[other_table]]`): per table, with the cluster totals, in JSON
//! (`tables`, `cluster`), text and HTML. Absent for a scenario with one table, whose report
//! stays as it was.

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use crate::assignment::server_name;
use crate::engine::{RunResult, TableResult};
use crate::report::svg::esc;
use crate::units::format_bytes;

/// One table of the cluster at the end of the run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableJson {
    /// Table name (the designed table first).
    pub name: String,
    /// Live regions at the start.
    pub regions_start: usize,
    /// Live regions at the end.
    pub regions_end: usize,
    /// Store file bytes at the end.
    pub store_bytes: u64,
    /// Memstore data bytes at the end.
    pub memstore_bytes: u64,
    /// Real rows written during the run.
    pub rows_written: u64,
    /// Data bytes written during the run.
    pub write_bytes: u64,
    /// Flushes of its regions.
    pub flushes: u64,
    /// Compactions (minor and major) of its regions.
    pub compactions: u64,
    /// Splits of its regions.
    pub splits: u64,
    /// Time its writers waited on refused regions or blocked servers (other tables), seconds.
    pub held_seconds: f64,
    /// Per server.
    pub servers: Vec<TableServerJson>,
}

/// One server's part of a table, or of the cluster.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableServerJson {
    /// Server name.
    pub server: String,
    /// Live regions at the end.
    pub regions: usize,
    /// Memstore data bytes at the end.
    pub memstore_bytes: u64,
    /// Data bytes written during the run.
    pub write_bytes: u64,
    /// Share of the table's (or cluster's) written bytes, 0..1.
    pub write_share: f64,
}

/// The cluster's totals: the sums over its tables.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClusterJson {
    /// Tables on the cluster.
    pub tables: usize,
    /// Live regions at the end.
    pub regions: usize,
    /// Store file bytes at the end.
    pub store_bytes: u64,
    /// Memstore data bytes at the end.
    pub memstore_bytes: u64,
    /// Data bytes written during the run.
    pub write_bytes: u64,
    /// Flushes.
    pub flushes: u64,
    /// Compactions.
    pub compactions: u64,
    /// Splits.
    pub splits: u64,
    /// Per server.
    pub servers: Vec<TableServerJson>,
}

fn servers_json(regions: &[usize], memstore: &[u64], written: &[u64]) -> Vec<TableServerJson> {
    let n = regions.len();
    let total: u64 = written.iter().sum();
    (0..n)
        .map(|i| TableServerJson {
            server: server_name(i, n),
            regions: regions[i],
            memstore_bytes: memstore[i],
            write_bytes: written[i],
            write_share: if total == 0 {
                0.0
            } else {
                ((written[i] as f64 / total as f64) * 1e4).round() / 1e4
            },
        })
        .collect()
}

fn table_json(t: &TableResult) -> TableJson {
    TableJson {
        name: t.name.clone(),
        regions_start: t.regions_start,
        regions_end: t.regions_end,
        store_bytes: t.store_bytes,
        memstore_bytes: t.server_memstore.iter().sum(),
        rows_written: t.rows_written,
        write_bytes: t.server_write_bytes.iter().sum(),
        flushes: t.flushes,
        compactions: t.compactions,
        splits: t.splits,
        held_seconds: t.held_ns as f64 / 1e9,
        servers: servers_json(&t.server_regions, &t.server_memstore, &t.server_write_bytes),
    }
}

/// The `tables` and `cluster` sections of a run (empty and `None` with one table).
pub fn json(r: &RunResult) -> (Vec<TableJson>, Option<ClusterJson>) {
    if r.tables.is_empty() {
        return (Vec::new(), None);
    }
    let tables: Vec<TableJson> = r.tables.iter().map(table_json).collect();
    let n = r.servers.len();
    let sum = |f: fn(&TableResult) -> &Vec<usize>| -> Vec<usize> {
        (0..n)
            .map(|i| r.tables.iter().map(|t| f(t)[i]).sum())
            .collect()
    };
    let sum64 = |f: fn(&TableResult) -> &Vec<u64>| -> Vec<u64> {
        (0..n)
            .map(|i| r.tables.iter().map(|t| f(t)[i]).sum())
            .collect()
    };
    let regions = sum(|t| &t.server_regions);
    let memstore = sum64(|t| &t.server_memstore);
    let written = sum64(|t| &t.server_write_bytes);
    let cluster = ClusterJson {
        tables: tables.len(),
        regions: tables.iter().map(|t| t.regions_end).sum(),
        store_bytes: tables.iter().map(|t| t.store_bytes).sum(),
        memstore_bytes: tables.iter().map(|t| t.memstore_bytes).sum(),
        write_bytes: tables.iter().map(|t| t.write_bytes).sum(),
        flushes: tables.iter().map(|t| t.flushes).sum(),
        compactions: tables.iter().map(|t| t.compactions).sum(),
        splits: tables.iter().map(|t| t.splits).sum(),
        servers: servers_json(&regions, &memstore, &written),
    };
    (tables, Some(cluster))
}

/// The text section: one line per table, then the cluster's totals and its servers.
pub fn text(o: &mut String, tables: &[TableJson], cluster: Option<&ClusterJson>) {
    let Some(c) = cluster else {
        return;
    };
    o.push_str("  tables on the cluster (regions start → end, store files, written, flushes, compactions, splits):\n");
    for t in tables {
        let _ = writeln!(
            o,
            "    {:<16} regions {} → {}, {}, written {}, {} flushes, {} compactions, {} splits{}",
            t.name,
            t.regions_start,
            t.regions_end,
            format_bytes(t.store_bytes),
            format_bytes(t.write_bytes),
            t.flushes,
            t.compactions,
            t.splits,
            if t.held_seconds > 0.0 {
                format!(", writers held {:.1} s", t.held_seconds)
            } else {
                String::new()
            }
        );
    }
    let _ = writeln!(
        o,
        "    cluster          regions {}, {}, written {}, {} flushes, {} compactions, {} splits",
        c.regions,
        format_bytes(c.store_bytes),
        format_bytes(c.write_bytes),
        c.flushes,
        c.compactions,
        c.splits
    );
    for (i, s) in c.servers.iter().enumerate() {
        let shares: Vec<String> = tables
            .iter()
            .map(|t| format!("{} {:.0}%", t.name, t.servers[i].write_share * 100.0))
            .collect();
        let _ = writeln!(
            o,
            "      {}  regions {}, memstore {}; write share {}",
            s.server,
            s.regions,
            format_bytes(s.memstore_bytes),
            shares.join(", ")
        );
    }
}

/// The HTML section: a table per table with the cluster's totals, then the servers.
pub fn html(o: &mut String, tables: &[TableJson], cluster: Option<&ClusterJson>) {
    let Some(c) = cluster else {
        return;
    };
    o.push_str(
        "<h3>Tables on the cluster</h3>\n<table><tr><th>table</th><th>regions</th>\
         <th>store bytes</th><th>written</th><th>flushes</th><th>compactions</th>\
         <th>splits</th></tr>\n",
    );
    for t in tables {
        let _ = writeln!(
            o,
            "<tr><td>{}</td><td>{} → {}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>\
             <td>{}</td></tr>",
            esc(&t.name),
            t.regions_start,
            t.regions_end,
            format_bytes(t.store_bytes),
            format_bytes(t.write_bytes),
            t.flushes,
            t.compactions,
            t.splits
        );
    }
    let _ = writeln!(
        o,
        "<tr><th>cluster</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th>\
         <th>{}</th></tr>\n</table>",
        c.regions,
        format_bytes(c.store_bytes),
        format_bytes(c.write_bytes),
        c.flushes,
        c.compactions,
        c.splits
    );
    o.push_str("<table><tr><th>server</th><th>regions</th><th>memstore</th>");
    for t in tables {
        let _ = write!(o, "<th>{} write share</th>", esc(&t.name));
    }
    o.push_str("</tr>\n");
    for (i, s) in c.servers.iter().enumerate() {
        let _ = write!(
            o,
            "<tr><td>{}</td><td>{}</td><td>{}</td>",
            esc(&s.server),
            s.regions,
            format_bytes(s.memstore_bytes)
        );
        for t in tables {
            let _ = write!(o, "<td>{:.1}%</td>", t.servers[i].write_share * 100.0);
        }
        o.push_str("</tr>\n");
    }
    o.push_str("</table>\n");
}
