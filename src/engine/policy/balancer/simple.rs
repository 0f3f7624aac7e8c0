//! `SimpleLoadBalancer` (HBase 2.6 `balanceTable` + `balanceOverall`), the whole cluster as one
//! table (`hbase.master.loadbalance.bytable=false`): every server ends with ⌊avg⌋ or ⌈avg⌉ regions.
//!
//! Where HBase's order depends on hash maps or an unseeded shuffle we use a fixed substitute:
//! hash-map iteration ⇒ ascending server index; `Collections.shuffle` ⇒ the seeded [`Rng`].
//! Regions to move are kept ordered like HBase's `RegionPlan` queue: source server, then key.

use std::collections::{BTreeMap, BTreeSet};

use super::{BalancePlan, Balancer, ClusterView, Gate, Layout, Move, Rng};
use crate::config::Settings;

/// Stream id for the receiver shuffle.
const SHUFFLE_STREAM: u64 = 0x51_4D50_4C45;

/// SimpleLoadBalancer with its seed and the last run's reason.
#[derive(Debug, Clone)]
pub struct SimpleBalancer {
    slop: f32,
    seed: u64,
    runs: u64,
    last_reason: String,
    /// During a by-table run: every server's load over all tables (`setClusterLoad`).
    overall: Option<Overall>,
}

/// `setClusterLoad`'s `serverLoadList` and `avgLoadOverall`: each server's regions over all
/// tables, in the list's current order (layout index, load). Each table's `balanceOverall` adds
/// its moves and sorts it, and the next table starts from there, as HBase's list does.
#[derive(Debug, Clone)]
struct Overall {
    avg: f32,
    list: Vec<(usize, i64)>,
}

impl Overall {
    /// `overallNeedsBalance`: a server outside [⌊avg·(1 − slop)⌋, ⌈avg·(1 + slop)⌉] overall
    /// (`hbase.regions.overallSlop` defaults to the slop). The reason when so.
    fn needs_balance(&self, slop: f32) -> Option<String> {
        let floor = (self.avg * (1.0 - slop)).floor() as i64;
        let ceiling = (self.avg * (1.0 + slop)).ceil() as i64;
        let max = self.list.iter().map(|&(_, l)| l).max().unwrap_or(0);
        let min = self.list.iter().map(|&(_, l)| l).min().unwrap_or(0);
        (max > ceiling || min < floor).then(|| {
            format!(
                "overall: servers hold {min}..{max} regions of all tables, outside \
                 [{floor}, {ceiling}] (avg {:.2}, slop {slop})",
                self.avg
            )
        })
    }
}

/// Per-server bookkeeping of `balanceTable` (HBase's `BalanceInfo`).
#[derive(Debug, Clone, Default)]
struct Info {
    /// Next index of `list` to unload.
    next: usize,
    /// Regions added (negative: shed).
    added: i64,
    /// The server's regions (newest first for overloaded servers, else key order).
    list: Vec<usize>,
}

/// A region plan: (source server, region position) with its destination.
#[derive(Debug, Clone, Copy)]
struct Plan {
    src: usize,
    pos: usize,
    dest: usize,
}

impl SimpleBalancer {
    /// From `hbase.regions.slop` (also the overall slop: `hbase.regions.overallSlop` is not
    /// modelled and defaults to the slop).
    pub fn new(settings: &Settings, seed: u64) -> SimpleBalancer {
        SimpleBalancer {
            slop: settings.slop,
            seed,
            runs: 0,
            last_reason: String::new(),
            overall: None,
        }
    }

    /// Plans one run over `view` (also what [`Balancer::balance`] returns).
    pub fn plan(&mut self, view: &ClusterView) -> Option<BalancePlan> {
        self.runs += 1;
        let layout = Layout::new(view);
        let loads: Vec<usize> = layout.per_server.iter().map(Vec::len).collect();
        let gate = Gate::check(&loads, self.slop);
        let prefix = "SimpleLoadBalancer";
        // balanceTable returns early with ≤ 1 server; otherwise it runs unless both
        // needsBalance (idle or sloppy) and overallNeedsBalance (sloppy with overallSlop, which
        // has no slop < 0 switch-off) say balanced.
        let why = match (&gate, &self.overall) {
            (Gate::TooFewServers(_), _) => None,
            (Gate::Idle { .. } | Gate::Sloppy(_), _) => Some(gate.describe(&layout)),
            // By table: the overall check reads every table's regions.
            (Gate::Within(_), Some(o)) => o.needs_balance(self.slop),
            (Gate::Within(s), None) if s.outside() => Some(format!(
                "{} (overall check; a negative slop does not switch it off)",
                s.describe(&layout)
            )),
            (Gate::Within(_), None) => None,
        };
        let Some(why) = why else {
            self.last_reason = format!("{prefix}: balanced: {}", gate.describe(&layout));
            return None;
        };
        let mut rng = Rng::new(self.seed, SHUFFLE_STREAM ^ self.runs);
        let (moves, summary) = balance_table(view, &layout, &mut rng, self.overall.as_mut());
        let reason = format!("{prefix}: {why}; {summary}");
        self.last_reason = reason.clone();
        Some(BalancePlan { moves, reason })
    }
}

impl Balancer for SimpleBalancer {
    fn balance(&mut self, view: &ClusterView) -> Option<BalancePlan> {
        self.plan(view)
    }

    fn last_reason(&self) -> String {
        self.last_reason.clone()
    }

    fn begin_cluster(&mut self, view: &ClusterView) {
        let layout = Layout::new(view);
        let n = layout.servers.len().max(1);
        let list: Vec<(usize, i64)> = layout
            .per_server
            .iter()
            .map(|r| r.len() as i64)
            .enumerate()
            .collect();
        let sum: i64 = list.iter().map(|&(_, l)| l).sum();
        self.overall = Some(Overall {
            avg: sum as f32 / n as f32,
            list,
        });
    }

    fn end_cluster(&mut self) {
        self.overall = None;
    }
}

/// `balanceTable` for one table (the ensemble, or one table of a by-table run with the cluster's
/// `overall` loads); returns the moves and a summary with the numbers.
fn balance_table(
    view: &ClusterView,
    layout: &Layout,
    rng: &mut Rng,
    overall: Option<&mut Overall>,
) -> (Vec<Move>, String) {
    let n = layout.servers.len();
    let loads: Vec<usize> = layout.per_server.iter().map(Vec::len).collect();
    let num_regions = layout.num_regions();
    let avg = num_regions as f32 / n as f32;
    let max = avg.ceil() as usize;
    let min = avg as usize;
    // serversByLoad: ascending (load, server).
    let mut by_load: Vec<usize> = (0..n).collect();
    by_load.sort_by_key(|&s| (loads[s], s));

    let mut to_move: BTreeSet<(usize, usize)> = BTreeSet::new();
    let mut info: Vec<Info> = vec![Info::default(); n];
    let mut overloaded = 0;
    for &s in by_load.iter().rev() {
        let load = loads[s];
        let mut list = layout.per_server[s].clone();
        if load <= max {
            info[s] = Info {
                next: 0,
                added: 0,
                list,
            };
            continue;
        }
        overloaded += 1;
        // RegionInfoComparator: newest regionId first; stable, so equal ids stay in key order.
        list.sort_by(|&a, &b| {
            view.regions[b]
                .region_id_ms
                .cmp(&view.regions[a].region_id_ms)
        });
        let shed = (load - max).min(list.len());
        for &pos in &list[..shed] {
            to_move.insert((s, pos));
        }
        info[s] = Info {
            next: shed,
            added: -(shed as i64),
            list,
        };
    }
    let shed_total = to_move.len();

    // Receivers below min, in HashMap order (here: server index), then shuffled.
    let mut under: BTreeMap<usize, usize> = BTreeMap::new();
    let mut max_to_take = num_regions as i64 - min as i64;
    for &s in &by_load {
        if max_to_take == 0 {
            break;
        }
        if loads[s] >= min {
            continue;
        }
        let put = min - loads[s];
        max_to_take -= put as i64;
        under.insert(s, put);
    }
    let underloaded = under.len();
    let mut sns: Vec<usize> = under.keys().copied().collect();
    rng.shuffle(&mut sns);
    let mut returns: Vec<Plan> = Vec::new();
    let mut forward = true;
    while !to_move.is_empty() {
        let mut cnt = 0;
        let order: Vec<usize> = if forward {
            (0..sns.len()).collect()
        } else {
            (0..sns.len()).rev().collect()
        };
        for i in order {
            if to_move.is_empty() {
                break;
            }
            let si = sns[i];
            let need = under[&si];
            if need == 0 {
                continue;
            }
            add_plan(&mut to_move, si, &mut returns);
            under.insert(si, need - 1);
            cnt += 1;
            info[si].added += 1;
        }
        if cnt == 0 {
            break;
        }
        forward = !forward;
    }
    let mut needed: usize = under.values().sum();
    let mut extra = 0;

    // Second pass: take one region from each most-loaded server until min is reachable.
    if needed != 0 {
        for &s in by_load.iter().rev() {
            let bi = &mut info[s];
            if bi.next >= bi.list.len() {
                break;
            }
            to_move.insert((s, bi.list[bi.next]));
            bi.added -= 1;
            bi.next += 1;
            extra += 1;
            needed -= 1;
            if needed == 0 {
                break;
            }
        }
    }

    // Fill every server up to min.
    for &s in &by_load {
        let mut count = loads[s] as i64;
        if count >= min as i64 {
            break;
        }
        count += info[s].added;
        if count >= min as i64 {
            continue;
        }
        let take = (min as i64 - count) as usize;
        let mut taken = 0;
        while taken < take && !to_move.is_empty() {
            add_plan(&mut to_move, s, &mut returns);
            taken += 1;
            info[s].added += 1;
        }
    }

    let overall = if min != max {
        match overall {
            Some(o) => balance_overall(&mut returns, &info, &mut o.list, &mut to_move, max, min),
            None => {
                // One ensemble table: the overall load is this table's.
                let mut sl: Vec<(usize, i64)> =
                    loads.iter().map(|&l| l as i64).enumerate().collect();
                balance_overall(&mut returns, &info, &mut sl, &mut to_move, max, min)
            }
        }
    } else {
        ""
    };

    let moves: Vec<Move> = returns
        .iter()
        .filter(|p| p.src != p.dest)
        .map(|p| Move {
            region: view.regions[p.pos].id,
            from: layout.servers[p.src],
            to: layout.servers[p.dest],
        })
        .collect();
    let summary = format!(
        "{} moves: max=ceil(avg {avg:.2})={max}, min=floor(avg)={min}; {overloaded} overloaded \
         server(s) shed {shed_total} newest region(s) to {underloaded} server(s) below min, \
         {extra} extra to fill min{overall}",
        moves.len()
    );
    (moves, summary)
}

/// `addRegionPlan` without `fetchFromTail` (always false in HBase): the first queued plan.
fn add_plan(to_move: &mut BTreeSet<(usize, usize)>, dest: usize, returns: &mut Vec<Plan>) {
    if let Some((src, pos)) = to_move.pop_first() {
        returns.push(Plan { src, pos, dest });
    }
}

/// `balanceOverall` (HBASE-24139): servers now at max give one region each to the least loaded
/// servers overall, folding A→B, B→C into A→C. `sl` is `serverLoadList`: (server, load over
/// all tables) in its current order, updated and sorted here. Returns a note for the reason
/// when it stopped early.
fn balance_overall(
    returns: &mut Vec<Plan>,
    info: &[Info],
    sl: &mut [(usize, i64)],
    to_move: &mut BTreeSet<(usize, usize)>,
    max: usize,
    min: usize,
) -> &'static str {
    // Step 1: plans by destination.
    let mut by_dest: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, p) in returns.iter().enumerate() {
        by_dest.entry(p.dest).or_default().push(i);
    }
    // Step 2: serverLoadList (HashMap order ⇒ server index at first); peel one region off servers
    // at max.
    for (s, load) in sl.iter_mut() {
        let bi = &info[*s];
        *load += bi.added;
        let now = bi.list.len() as i64 + bi.added;
        if now == max as i64 {
            if bi.list.is_empty() || bi.next >= bi.list.len() {
                continue;
            }
            to_move.insert((*s, bi.list[bi.next]));
            *load -= 1;
        } else if now > max as i64 || now < min as i64 {
            return "; balanceOverall stopped: a server is outside [min, max]";
        }
    }
    // Step 3: stable sort by overall load.
    sl.sort_by_key(|&(_, l)| l);
    // Step 4: a source among the first `assign` servers keeps its first queued region.
    let assign = to_move.len();
    let mut index = vec![0; sl.len()];
    for (i, &(s, _)) in sl.iter().enumerate() {
        index[s] = i;
    }
    let mut sources: BTreeMap<usize, usize> = BTreeMap::new();
    let mut removed = Vec::new();
    for &(src, pos) in to_move.iter() {
        let c = sources.entry(src).or_insert(0);
        *c += 1;
        if index[src] < assign && *c == 1 {
            removed.push((src, pos));
            sl[index[src]].1 += 1;
        }
    }
    for r in removed {
        to_move.remove(&r);
    }
    // Step 5: the least loaded `assign` servers (sources excepted) take one region each.
    for entry in sl.iter_mut().take(assign) {
        let s = entry.0;
        if sources.contains_key(&s) {
            continue;
        }
        if to_move.is_empty() {
            break;
        }
        add_plan(to_move, s, returns);
        entry.1 += 1;
        let Some(last) = returns.last().copied() else {
            continue;
        };
        if let Some(pos) = by_dest.get_mut(&last.src)
            && let Some(earlier) = pos.pop()
        {
            returns[earlier].dest = last.dest;
            returns.pop();
        }
    }
    ""
}

#[cfg(test)]
mod tests {
    //! Mirrors `TestSimpleLoadBalancer` / `TestBaseLoadBalancer` cluster shapes; expected plans
    //! worked out by hand from `SimpleLoadBalancer.balanceTable`.
    use super::*;
    use crate::engine::policy::balancer::{RegionLoad, Slop};

    fn settings(slop: f32) -> Settings {
        let mut s = crate::engine::policy::balancer::test_settings();
        s.slop = slop;
        s
    }

    /// `counts[s]` regions on server s; region ids in key order; region_id_ms = id (later = newer).
    fn view(counts: &[usize]) -> ClusterView {
        tables_view(&[counts]).0
    }

    fn after(v: &ClusterView, plan: &BalancePlan) -> Vec<usize> {
        let mut loads = vec![0; v.servers.len()];
        let mut at: Vec<usize> = v.regions.iter().map(|r| r.server).collect();
        for m in &plan.moves {
            assert_eq!(at[m.region], m.from, "move from the hosting server");
            at[m.region] = m.to;
        }
        for s in at {
            loads[s] += 1;
        }
        loads
    }

    /// `counts[t][s]` regions of table t on server s, as one view (ids in table then server
    /// order, later = newer), with each region's table and the view of table `t` alone.
    fn tables_view(counts: &[&[usize]]) -> (ClusterView, Vec<u16>) {
        let mut regions = Vec::new();
        let mut table_of = Vec::new();
        for (t, per_server) in counts.iter().enumerate() {
            for (s, &c) in per_server.iter().enumerate() {
                for _ in 0..c {
                    let id = regions.len();
                    regions.push(RegionLoad {
                        id,
                        server: s,
                        region_id_ms: id as u64,
                        read_requests: 0,
                        write_requests: 0,
                        memstore_bytes: 0,
                        storefile_bytes: 0,
                    });
                    table_of.push(t as u16);
                }
            }
        }
        let v = ClusterView {
            servers: (0..counts[0].len()).collect(),
            regions,
            now_ms: 0,
            offpeak: false,
        };
        (v, table_of)
    }

    fn table(v: &ClusterView, table_of: &[u16], t: u16) -> ClusterView {
        ClusterView {
            regions: v
                .regions
                .iter()
                .zip(table_of)
                .filter(|&(_, &tt)| tt == t)
                .map(|(r, _)| r.clone())
                .collect(),
            ..v.clone()
        }
    }

    // Mirrors TestSimpleLoadBalancer.testBalanceClusterOverallStrictly: with the cluster's load
    // over both tables (preBalanceCluster → setClusterLoad), balancing table0 alone leaves every
    // server with 6 regions overall. balanceTable evens table0 at 4 or 5 a server (servers 8
    // and 7 shed one each to the two with 3); balanceOverall then ranks servers by their load
    // over all tables: server 6, now at table0's max with 7 overall, gives one to server 8 (5).
    #[test]
    fn a_by_table_run_ranks_servers_by_their_load_over_all_tables() {
        let (v, table_of) =
            tables_view(&[&[3, 3, 4, 4, 4, 4, 5, 5, 5], &[2, 2, 2, 2, 2, 2, 2, 2, 1]]);
        let t0 = table(&v, &table_of, 0);
        let mut b = SimpleBalancer::new(&settings(0.0), 1);
        b.begin_cluster(&v);
        let p = b.balance(&t0).expect("uneven overall");
        assert_eq!(after(&v, &p), vec![6; 9], "{p:?}");
        b.end_cluster();
        // Ranked by table0's own load (the ensemble's rule), server 0 takes that region: 7.
        let p = b.balance(&t0).expect("table0 uneven");
        let loads = after(&v, &p);
        assert_ne!(loads, vec![6; 9], "{p:?}");
        assert_eq!(loads.iter().sum::<usize>(), 54);
    }

    // Mirrors SimpleLoadBalancer.overallNeedsBalance: a table balanced on its own is still
    // balanced when the servers' loads over all tables are outside [⌊avg⌋, ⌈avg⌉] (slop 0).
    #[test]
    fn a_balanced_table_is_balanced_again_when_the_cluster_is_not() {
        // table0 even (2 a server); table1 all on server 0: overall 6, 2, 2 (avg 3.33).
        let (v, table_of) = tables_view(&[&[2, 2, 2], &[4, 0, 0]]);
        let t0 = table(&v, &table_of, 0);
        let mut b = SimpleBalancer::new(&settings(0.0), 1);
        assert!(b.balance(&t0).is_none(), "table0 alone is balanced");
        b.begin_cluster(&v);
        let _ = b.balance(&t0);
        assert!(
            b.last_reason().contains("overall: servers hold 2..6"),
            "{}",
            b.last_reason()
        );
    }

    #[test]
    fn ten_zero_zero_spreads_newest_regions() {
        // avg 3.33: idle servers ⇒ balance; max 4, min 3; rs01 sheds 6 newest (ids 9..4), the
        // two receivers take 3 each; balanceOverall: rs01 at max gives nothing (not at max+).
        let v = view(&[10, 0, 0]);
        let mut b = SimpleBalancer::new(&settings(0.2), 7);
        let p = b.balance(&v).expect("idle server ⇒ balance");
        assert_eq!(after(&v, &p), vec![4, 3, 3]);
        assert_eq!(p.moves.len(), 6);
        let mut moved: Vec<usize> = p.moves.iter().map(|m| m.region).collect();
        moved.sort_unstable();
        assert_eq!(moved, vec![4, 5, 6, 7, 8, 9], "newest regionIds shed first");
        assert!(
            p.reason.contains("0 regions while rs01 has 10"),
            "{}",
            p.reason
        );
    }

    #[test]
    fn within_slop_is_balanced() {
        // avg 8.33, slop 0.2: floor(6.67)=6, ceil(10)=10; loads 10/8/7 inside ⇒ no plan.
        let v = view(&[10, 8, 7]);
        let mut b = SimpleBalancer::new(&settings(0.2), 1);
        assert!(b.balance(&v).is_none());
        assert!(b.last_reason().contains("within"), "{}", b.last_reason());
        assert!(b.last_reason().contains("=6 and"), "{}", b.last_reason());
    }

    #[test]
    fn uneven_counts_reach_floor_and_ceiling() {
        // 14/6/5 = 25 regions, avg 8.33: ceil(8.33×1.2=10.0)=10 < 14 ⇒ balance. max 9, min 8:
        // rs01 sheds 5; rs02 needs 2, rs03 needs 3 ⇒ 9/8/8.
        let v = view(&[14, 6, 5]);
        let mut b = SimpleBalancer::new(&settings(0.2), 3);
        let p = b.balance(&v).expect("sloppy");
        assert_eq!(after(&v, &p), vec![9, 8, 8]);
        assert_eq!(p.moves.len(), 5);
        assert!(
            p.reason.contains("rs01 has 14 regions > ceil(avg 8.33"),
            "{}",
            p.reason
        );
    }

    #[test]
    fn extra_moves_fill_min_and_overall_evens_out() {
        // 5/5/5/0 = 15, avg 3.75: max 4, min 3. Three servers shed 1 each (3 regions) to rs04
        // (needs 3) ⇒ 4/4/4/3: balanced to ⌊avg⌋..⌈avg⌉.
        let v = view(&[5, 5, 5, 0]);
        let p = SimpleBalancer::new(&settings(0.2), 9)
            .balance(&v)
            .expect("idle");
        assert_eq!(after(&v, &p), vec![4, 4, 4, 3]);
        // 9/9/0/0 = 18, avg 4.5: max 5, min 4; shed 4+4 to two receivers needing 4 each.
        let v = view(&[9, 9, 0, 0]);
        let p = SimpleBalancer::new(&settings(0.2), 9)
            .balance(&v)
            .expect("idle");
        let mut l = after(&v, &p);
        l.sort_unstable();
        assert_eq!(l, vec![4, 4, 5, 5]);
    }

    #[test]
    fn second_pass_takes_one_from_each_most_loaded() {
        // 4/4/4/4/0 = 16, avg 3.2: max 4, min 3. No server is over max, so nothing is shed;
        // rs05 needs 3 ⇒ the second pass takes one from each of the 3 most loaded.
        let v = view(&[4, 4, 4, 4, 0]);
        let p = SimpleBalancer::new(&settings(0.2), 2)
            .balance(&v)
            .expect("idle");
        let l = after(&v, &p);
        assert_eq!(l[4], 3);
        assert_eq!(l.iter().sum::<usize>(), 16);
        assert!(l.iter().all(|&x| (3..=4).contains(&x)), "{l:?}");
        assert_eq!(p.moves.len(), 3);
    }

    #[test]
    fn one_server_empty_and_no_regions_never_plan() {
        let mut b = SimpleBalancer::new(&settings(0.2), 0);
        assert!(b.balance(&view(&[5])).is_none());
        assert!(b.last_reason().contains("only 1"), "{}", b.last_reason());
        assert!(b.balance(&view(&[])).is_none());
        assert!(b.balance(&view(&[0, 0, 0])).is_none());
        // One region, idle servers: idle needs a server with > 1 region ⇒ balanced.
        assert!(b.balance(&view(&[1, 0])).is_none());
    }

    #[test]
    fn negative_slop_still_runs_overall_check() {
        // slop -1: sloppyRegionServerExist is off, but overallNeedsBalance sees
        // ceil(avg × 0)=0 < max ⇒ balanceTable runs; a perfectly even cluster moves nothing.
        let v = view(&[3, 3]);
        let p = SimpleBalancer::new(&settings(-1.0), 0)
            .balance(&v)
            .expect("overall check fires");
        assert!(p.moves.is_empty());
    }

    #[test]
    fn deterministic_for_a_seed() {
        let v = view(&[20, 1, 0, 0, 2]);
        let a = SimpleBalancer::new(&settings(0.2), 42).balance(&v);
        let b = SimpleBalancer::new(&settings(0.2), 42).balance(&v);
        assert_eq!(a, b);
        let l = after(&v, &a.expect("plan"));
        assert!(l.iter().all(|&x| (4..=5).contains(&x)), "{l:?}");
    }

    #[test]
    fn slop_numbers() {
        let s = Slop::of(&[10, 8, 7], 0.2).expect("servers");
        assert_eq!((s.floor, s.ceiling), (6, 10));
        assert!(!s.outside());
        let s = Slop::of(&[11, 8, 7], 0.2).expect("servers");
        assert_eq!((s.floor, s.ceiling), (6, 11));
        assert!(!s.outside());
    }
}
