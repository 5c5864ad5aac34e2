//! Finds candidate positions for the tactics suite (`crates/ai/tactics/`, [`pacw_ai::tactics`]) in real games.
//! `cargo run --release -p pacw-ai --example tactics_mine -- FIRST GAMES OUT [SCENARIO]`
//!
//! Plays greedy, veteran or recruit against greedy over the shipped battles in turn, and at each decision
//! that begins an order on the last turn or with a side one loss from exhaustion: measures every order of the side
//! by 48 play-outs; where one leads by 4 points, the best six (orders with the very same play-outs counted as one,
//! told two ways) again by 2,000 play-outs on new worlds (so that the ones chosen are not chosen on their own luck). A position is kept
//! when the best order beats every other by at least 3 points of score and 3.5 standard errors: it is written to OUT
//! as a draft position (the facts of the order as comments, the sentence why left for a person to write).

use pacw_ai::review::search::{Plan, plans};
use pacw_ai::tactics::{mean, measure, paired, plan_text};
use pacw_engine::{Action, Battle, Game, Modifier, SHIPPED_SCENARIOS, Side, ToAct};
use std::fmt::Write;

/// The board as text with each unit's id: upper case for the first side, arm letter, id, `*` when shaken.
fn board(b: &Battle) -> String {
    let map = &b.scenario().map;
    let mut out = String::new();
    for y in (0..map.height()).rev() {
        let _ = write!(out, "# {:>2} ", y + 1);
        for x in 0..map.width() {
            let s = pacw_engine::Square::try_new(x, y).expect("on the board");
            let terrain = format!("{:?}", map.terrain(s)).chars().next().unwrap_or('.');
            let cell = match b.unit_at(s) {
                Some(u) => {
                    let info = b.info(u);
                    let arm = format!("{:?}", info.arm).chars().next().unwrap_or('?');
                    let arm = if info.side == Side::A { arm } else { arm.to_ascii_lowercase() };
                    let facing = format!("{:?}", b.unit(u).facing);
                    format!("{arm}{:<2}{}{}", u.0, facing, if b.unit(u).shaken { '*' } else { ' ' })
                }
                None => {
                    let obj = b.scenario().objectives.iter().any(|o| o.at == s);
                    format!("{}{}{}   ", terrain, map.elevation(s), if obj { '@' } else { ' ' })
                }
            };
            out.push_str(&cell);
        }
        out.push('\n');
    }
    out
}

/// What the order does, as tags and facts for the person writing the sentence why.
fn facts(b: &Battle, plan: &Plan) -> (Vec<&'static str>, String) {
    let mut tags = Vec::new();
    let mut notes = String::new();
    let ToAct::Side(side) = b.to_act() else { return (tags, notes) };
    let other = side.other();
    if b.turn() == b.turn_limit() {
        tags.push("last-turn");
    }
    let mut after = b.clone();
    let unit = match plan[0] {
        Action::Activate(u) => Some(u),
        _ => b.active_unit(),
    };
    for &a in plan {
        if let Some(u) = unit
            && let Ok(x) = after.assess_order(u, &a)
        {
            tags.push(if x.charge { "charge" } else { "fire" });
            if x.target_shaken {
                tags.push("target-shaken");
            }
            for m in x.modifiers.iter() {
                match m {
                    Modifier::FlankCharge | Modifier::RearCharge => tags.push("flank-rear"),
                    Modifier::Canister => tags.push("canister"),
                    Modifier::Ranging => tags.push("ranging"),
                    Modifier::Cover(_) => tags.push("target-in-cover"),
                    _ => {}
                }
            }
            if b.destroyed(other) + 1 >= b.exhaustion_point(other) {
                tags.push("exhaustion-kill");
            }
            let _ = writeln!(
                notes,
                "# attack: needs {}+, target {} strength {}, shaken {}, modifiers {:?}",
                x.needed,
                b.side_and_name(x.target),
                x.strength,
                x.target_shaken,
                x.modifiers.iter().collect::<Vec<_>>()
            );
        }
        match a {
            Action::Hold => tags.push("hold"),
            Action::EndActivations => tags.push("end-activations"),
            _ => {}
        }
        if after.apply(a).is_err() {
            break;
        }
    }
    if let (Some(u), Some((attacker, target, _))) = (unit, after.pending_attack())
        && attacker == u
        && !after.can_retreat(target, attacker)
    {
        tags.push("retreat-blocked");
    }
    if let Some(u) = unit {
        let at = after.unit(u).at;
        let map = &b.scenario().map;
        if map.gives_cover(at) {
            tags.push("in-cover");
        }
        if at != b.unit(u).at {
            tags.push("moved");
        }
        if b.scenario().objectives.iter().any(|o| o.at == at) {
            tags.push("on-objective");
        }
        let _ = writeln!(notes, "# unit {} ends at {at} ({:?})", b.side_and_name(u), map.terrain(at));
    }
    let _ = writeln!(
        notes,
        "# turn {} of {}, points {:?}, destroyed {:?} of exhaustion {:?}, activations left {}",
        b.turn(),
        b.turn_limit(),
        b.points(),
        [b.destroyed(Side::A), b.destroyed(Side::B)],
        [b.exhaustion_point(Side::A), b.exhaustion_point(Side::B)],
        b.activations_left()
    );
    (tags, notes)
}

fn toml_plan(plan: &[Action]) -> String {
    // The actions as TOML inline tables: the JSON the saves write, with `=` for `:`.
    let parts: Vec<String> = plan.iter().map(toml_action).collect();
    format!("[{}]", parts.join(", "))
}

fn toml_action(a: &Action) -> String {
    let json = serde_json::to_value(a).expect("actions serialise");
    toml_value(&json)
}

fn toml_value(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::Object(m) => {
            let parts: Vec<String> = m.iter().map(|(k, v)| format!("{k} = {}", toml_value(v))).collect();
            format!("{{ {} }}", parts.join(", "))
        }
        other => other.to_string(),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let first: u64 = args.get(1).and_then(|s| s.parse().ok()).expect("FIRST");
    let games: u64 = args.get(2).and_then(|s| s.parse().ok()).expect("GAMES");
    let out = std::path::PathBuf::from(args.get(3).expect("OUT"));
    let only = args.get(4);
    std::fs::create_dir_all(&out).expect("OUT can be made");
    for g in first..first + games {
        let shipped = SHIPPED_SCENARIOS[g as usize % SHIPPED_SCENARIOS.len()];
        if only.is_some_and(|o| o != shipped.name) {
            continue;
        }
        let seed = g * 7919 + 13;
        let mut game = Game::new(shipped.text, shipped.file, None, seed).expect("shipped battles are valid");
        // A recruit's slips leave the sharp positions a suite wants (a shaken unit in reach, an objective open).
        let first_player = ["greedy", "veteran", "recruit", "recruit"][g as usize % 4];
        let mut players =
            [pacw_ai::player(first_player, g).expect("known"), pacw_ai::player("greedy", g + 1).expect("known")];
        if g % 8 >= 4 {
            players.swap(0, 1);
        }
        let mut previous_activate = false;
        let mut kept = 0;
        let started = std::time::Instant::now();
        while let ToAct::Side(side) = game.battle().to_act() {
            let b = game.battle().clone();
            if !previous_activate && sharp(&b) {
                let all = plans(&b);
                if all.len() >= 4 {
                    consider(&b, &all, &game, g, shipped.name, &out, &mut kept);
                }
            }
            let action = players[side.index()].choose(&b);
            previous_activate = matches!(action, Action::Activate(_));
            game.act(action).expect("players choose legal actions");
        }
        eprintln!(
            "game {g} {} ({} decisions): {kept} kept, {:.0} s",
            shipped.name,
            game.actions().len(),
            started.elapsed().as_secs_f32()
        );
    }
}

/// Whether the moment is one where an order may decide the game: the last turn (R8.2), or a side one loss from
/// exhaustion (R8.1). Elsewhere greedy play-outs rarely set one order far apart from every other.
fn sharp(b: &Battle) -> bool {
    let ToAct::Side(side) = b.to_act() else { return false };
    let _ = side;
    b.turn() >= b.turn_limit() || Side::BOTH.iter().any(|&s| b.destroyed(s) + 1 >= b.exhaustion_point(s))
}

/// Whether an order has one of the motifs that can decide a game: on the last turn, ending on an objective the
/// side does not hold (R8.2); against a side one loss from exhaustion, a charge or an attack on a shaken unit
/// (R7.1, R8.1).
fn motif(b: &Battle, side: Side, plan: &Plan) -> bool {
    let Some(&order) = plan.last() else { return false };
    let unit = match plan[0] {
        Action::Activate(u) => u,
        _ => match b.active_unit() {
            Some(u) => u,
            None => return false,
        },
    };
    let mut activated = b.clone();
    if plan.len() == 2 && activated.apply(plan[0]).is_err() {
        return false;
    }
    let other = side.other();
    if b.destroyed(other) + 1 >= b.exhaustion_point(other)
        && let Ok(x) = activated.assess_order(unit, &order)
        && (x.charge || x.target_shaken)
    {
        return true;
    }
    let objectives = &b.scenario().objectives;
    b.turn() >= b.turn_limit()
        && matches!(order, Action::Move { to, .. } | Action::MoveFire { to, .. } | Action::Advance { to, .. }
            if objectives.iter().enumerate().any(|(i, o)| o.at == to && b.objective_holder(i) != Some(side)))
}

/// Measures every order of `b` and writes a draft when one is clearly best.
fn consider(b: &Battle, all: &[Plan], game: &Game, g: u64, name: &str, out: &std::path::Path, kept: &mut u32) {
    let ToAct::Side(side) = b.to_act() else { return };
    if !all.iter().any(|p| motif(b, side, p)) {
        return;
    }
    let sweep = measure(b, all, 1_000..1_048);
    let mut order: Vec<usize> = (0..all.len()).collect();
    order.sort_by(|&i, &j| mean(&sweep[j]).total_cmp(&mean(&sweep[i])));
    // Orders with the very same play-outs are one order told two ways (another facing where none matters): the
    // finalists are the best six such groups, every member of each.
    let mut groups: Vec<&Vec<f32>> = Vec::new();
    let mut finalists: Vec<Plan> = Vec::new();
    for &i in &order {
        if !groups.contains(&&sweep[i]) {
            if groups.len() == 6 {
                break;
            }
            groups.push(&sweep[i]);
        }
        finalists.push(all[i].clone());
    }
    if groups.len() < 2 || mean(groups[0]) - mean(groups[1]) < 0.04 {
        return;
    }
    let rows = measure(b, &finalists, 10_000..12_000);
    let mut fin: Vec<usize> = (0..finalists.len()).collect();
    fin.sort_by(|&i, &j| mean(&rows[j]).total_cmp(&mean(&rows[i])));
    let best = fin[0];
    let equivalent: Vec<usize> = fin.iter().copied().skip(1).filter(|&i| rows[i] == rows[best]).collect();
    let Some(&second) = fin.iter().skip(1).find(|&&i| rows[i] != rows[best]) else { return };
    let (margin, se) = paired(&rows[best], &rows[second]);
    eprintln!(
        "  decision {}: final {:.3} vs {:.3}, margin {margin:.3} ± {se:.3}, {} equivalent",
        game.actions().len(),
        mean(&rows[best]),
        mean(&rows[second]),
        equivalent.len()
    );
    if margin < 0.03 || margin < 3.5 * se {
        return;
    }
    *kept += 1;
    let (tags, notes) = facts(b, &finalists[best]);
    let mut text = String::new();
    let _ = writeln!(text, "# tags: {}", tags.join(" "));
    let _ = writeln!(text, "# best: {}", plan_text(b, &finalists[best]));
    for &i in fin.iter().skip(1).take(5) {
        let _ = writeln!(text, "# alt {:.3}: {}", mean(&rows[i]), plan_text(b, &finalists[i]));
    }
    text.push_str(&notes);
    text.push_str(&board(b));
    let _ = writeln!(text, "title = \"\"");
    let _ = writeln!(text, "battle = \"{name}\"");
    let _ = writeln!(text, "seed = {}", game.seed());
    let _ = writeln!(text, "side = \"{}\"", b.scenario().side(side).id);
    let decisions: Vec<String> = game.actions().iter().map(toml_action).collect();
    let _ = writeln!(text, "decisions = [\n  {},\n]", decisions.join(",\n  "));
    let _ = writeln!(text, "best = {}", toml_plan(&finalists[best]));
    let equal: Vec<String> = equivalent.iter().map(|&i| toml_plan(&finalists[i])).collect();
    let _ = writeln!(text, "equivalent = [{}]", equal.join(", "));
    let _ = writeln!(text, "why = \"\"\"\n\"\"\"\nrules = []\n");
    let _ = writeln!(text, "[margin]");
    let _ = writeln!(text, "playouts = 2000");
    let _ = writeln!(text, "orders = {}", all.len());
    let _ = writeln!(text, "best = {:.3}", mean(&rows[best]));
    let _ = writeln!(text, "runner_up = {:.3}", mean(&rows[second]));
    let _ = writeln!(text, "runner_up_order = {}", toml_plan(&finalists[second]));
    let _ = writeln!(text, "standard_error = {se:.3}");
    let file = out.join(format!("{name}-g{g}-d{}.toml", game.actions().len()));
    std::fs::write(file, text).expect("OUT is writable");
}
