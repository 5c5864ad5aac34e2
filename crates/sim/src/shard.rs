//! Simulations spread over several machines: `simulate --shard K/N` plays the games whose index is K−1 modulo N
//! and writes them, with everything that decides them, to a shard file; [`merge`] reads the N shard files back
//! into the simulation the unsharded run would have made (the same records, so the same report).

use crate::config::{Axis, ScenarioSource, Shard, SimConfig, Variant, VariantFile};
use crate::error::SimError;
use crate::record::GameRecord;
use crate::run::Simulation;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The `format` of a shard file.
pub const SHARD_FORMAT: &str = "pacw-shard";
/// Its version.
pub const SHARD_VERSION: u32 = 1;

/// A scenario as a shard file keeps it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScenarioText {
    /// Its file name.
    pub file: String,
    /// Its text.
    pub text: String,
    /// The variant it names itself (`variant = "my-rules.toml"`, read beside it, or a shipped one), kept so that
    /// the shard is read back without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<pacw_engine::SavedVariant>,
}

impl ScenarioText {
    /// The scenario's source again: with the variant it names read from the copy kept.
    fn source(&self, variant_files: &[VariantFile]) -> Result<ScenarioSource, String> {
        let read = |name: &str| match &self.variant {
            Some(own) if name == own.file => Ok(own.text.clone()),
            _ => Err(format!("not kept with the shard: {name}")),
        };
        ScenarioSource::parse_for(&self.text, &self.file, variant_files, &read).map_err(|e| e.to_string())
    }
}

/// Everything that decides a simulation's games, as a shard file keeps it: the same in every shard of one
/// simulation. It is the raw form of a [`SimConfig`] (scenarios as their text, nothing checked), as a position's
/// setup is to the position in a chess library: [`SavedConfig::of`] writes one, and merging shards reads the
/// scenarios again and checks them before the records are trusted. The running settings (threads, the shard) are
/// not part of it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SavedConfig {
    /// The scenarios.
    pub scenarios: Vec<ScenarioText>,
    /// The variant files, laid over each scenario's own rules in order.
    #[serde(default)]
    pub variant_files: Vec<VariantFile>,
    /// The one variant file of a shard written before variant files combined: read as `variant_files`.
    #[serde(default, skip_serializing)]
    variant_file: Option<VariantFile>,
    /// The rule sets a `rules` axis compares.
    #[serde(default)]
    pub rule_sets: Vec<VariantFile>,
    /// `--set` pairs.
    pub sets: Vec<(String, String)>,
    /// The `--compare` axes.
    pub axes: Vec<Axis>,
    /// The variants.
    pub variants: Vec<Variant>,
    /// Games per variant and scenario.
    pub games: usize,
    /// The seed.
    pub seed: u64,
    /// The players.
    pub players: [String; 2],
    /// Whether the players keep their sides.
    pub fixed_sides: bool,
}

impl SavedConfig {
    /// What a shard file keeps of a configuration.
    pub fn of(config: &SimConfig) -> SavedConfig {
        SavedConfig {
            scenarios: config
                .scenarios
                .iter()
                .map(|s| ScenarioText {
                    file: s.file.clone(),
                    text: s.text.clone(),
                    variant: s.own_rules.as_deref().and_then(|v| v.source()).map(|(file, text)| {
                        pacw_engine::SavedVariant { file: file.to_string(), text: text.to_string() }
                    }),
                })
                .collect(),
            variant_files: config.variant_files.clone(),
            variant_file: None,
            rule_sets: config.rule_sets.clone(),
            sets: config.sets.clone(),
            axes: config.axes.clone(),
            variants: config.variants.clone(),
            games: config.games,
            seed: config.seed,
            players: config.players.clone(),
            fixed_sides: config.fixed_sides,
        }
    }

    /// The configuration again (without a shard or threads).
    ///
    /// # Errors
    /// When a scenario's text is no longer a good scenario (under the variant file, or its own variant kept with it).
    pub fn config(&self) -> Result<SimConfig, String> {
        let variant_files: Vec<VariantFile> = self.variant_file.iter().chain(&self.variant_files).cloned().collect();
        let scenarios = self.scenarios.iter().map(|s| s.source(&variant_files)).collect::<Result<Vec<_>, _>>()?;
        let mut c = SimConfig::of(scenarios);
        c.variant_files = variant_files;
        c.rule_sets = self.rule_sets.clone();
        c.sets = self.sets.clone();
        c.axes = self.axes.clone();
        c.variants = self.variants.clone();
        c.games = self.games;
        c.seed = self.seed;
        c.players = self.players.clone();
        c.fixed_sides = self.fixed_sides;
        Ok(c)
    }
}

/// A shard's results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardFile {
    /// Always [`SHARD_FORMAT`].
    pub format: String,
    /// [`SHARD_VERSION`].
    pub version: u32,
    /// Which shard.
    pub shard: Shard,
    /// What decides the games.
    pub setup: SavedConfig,
    /// Seconds the shard's games took.
    pub seconds: f64,
    /// Threads it used.
    pub threads: usize,
    /// Its games' records.
    pub records: Vec<GameRecord>,
}

/// The file name of shard `k` of `n`.
pub fn shard_file_name(shard: Shard) -> String {
    format!("shard-{}-of-{}.json", shard.k, shard.n)
}

/// The shard file of a sharded simulation.
pub fn shard_file(sim: &Simulation) -> Option<ShardFile> {
    Some(ShardFile {
        format: SHARD_FORMAT.into(),
        version: SHARD_VERSION,
        shard: sim.config.shard?,
        setup: SavedConfig::of(&sim.config),
        seconds: sim.seconds,
        threads: sim.threads,
        records: sim.records.clone(),
    })
}

/// Writes a sharded simulation's shard file into `dir` (created if needed); returns its path.
///
/// # Errors
/// When the simulation is not sharded, or the file cannot be written.
pub fn write_shard(sim: &Simulation, dir: &Path) -> Result<PathBuf, SimError> {
    let file =
        shard_file(sim).ok_or_else(|| SimError::Merge { path: dir.into(), message: "not a sharded run".into() })?;
    let name = shard_file_name(file.shard);
    let text = serde_json::to_string(&file).map_err(|e| SimError::Write { path: dir.join(&name), source: e.into() })?;
    crate::site::write_file(dir, &name, &text)
}

/// Reads the shard files found at `paths` (each a shard file, or a folder holding shard files).
///
/// # Errors
/// When a path cannot be read, a folder holds no shard file, or a file is not a shard file of this version.
pub fn read_shards(paths: &[PathBuf]) -> Result<Vec<(PathBuf, ShardFile)>, SimError> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries =
                std::fs::read_dir(path).map_err(|e| SimError::Merge { path: path.clone(), message: e.to_string() })?;
            let mut found: Vec<PathBuf> = entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("shard-")))
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(SimError::Merge { path: path.clone(), message: "no shard-K-of-N.json file here".into() });
            }
            files.extend(found);
        } else {
            files.push(path.clone());
        }
    }
    files
        .into_iter()
        .map(|path| {
            let bad = |message: String| SimError::Merge { path: path.clone(), message };
            let text = std::fs::read_to_string(&path).map_err(|e| bad(e.to_string()))?;
            let file: ShardFile = serde_json::from_str(&text).map_err(|e| bad(format!("not a shard file: {e}")))?;
            if file.format != SHARD_FORMAT || file.version != SHARD_VERSION {
                return Err(bad(format!("not a {SHARD_FORMAT} version {SHARD_VERSION} file")));
            }
            Ok((path, file))
        })
        .collect()
}

/// Combines the shards of one simulation into the simulation the unsharded run makes: every shard 1..N once,
/// all with the same setup. Its time is the shards' total.
///
/// # Errors
/// When no shard is given, the shards are of different simulations or counts, a shard does not exist in its simulation,
/// is given twice or is missing, the setup no longer gives a good configuration, or the games are not the simulation's
/// number.
pub fn merge(shards: Vec<(PathBuf, ShardFile)>) -> Result<Simulation, SimError> {
    let Some((first_path, first)) = shards.first() else {
        return Err(SimError::Merge { path: PathBuf::new(), message: "no shard given".into() });
    };
    let n = first.shard.n;
    let mut seen = vec![false; n];
    for (path, s) in &shards {
        let bad = |message: String| SimError::Merge { path: path.clone(), message };
        if s.setup != first.setup {
            return Err(bad(format!("it is a shard of another simulation than {}", first_path.display())));
        }
        if s.shard.n != n {
            return Err(bad(format!("it is one of {} shards, {} one of {n}", s.shard.n, first_path.display())));
        }
        if s.shard.k == 0 || s.shard.k > n {
            return Err(bad(format!("shard {}/{n} does not exist", s.shard.k)));
        }
        if std::mem::replace(&mut seen[s.shard.k - 1], true) {
            return Err(bad(format!("shard {}/{n} is given twice", s.shard.k)));
        }
    }
    let missing: Vec<String> = (1..=n).filter(|k| !seen[k - 1]).map(|k| format!("{k}/{n}")).collect();
    if !missing.is_empty() {
        return Err(SimError::Merge {
            path: first_path.clone(),
            message: format!("missing shards {}", missing.join(", ")),
        });
    }
    let config = first.setup.config().map_err(|message| SimError::Merge { path: first_path.clone(), message })?;
    let mut records: Vec<GameRecord> = shards.iter().flat_map(|(_, s)| s.records.iter().cloned()).collect();
    records.sort_by_key(|r| (r.scenario, r.variant, r.index));
    let bad = |message: String| SimError::Merge { path: first_path.clone(), message };
    let (scenarios, variants) = (config.scenarios.len(), config.variant_list().len());
    let expected = config.games.checked_mul(scenarios).and_then(|n| n.checked_mul(variants));
    if expected != Some(records.len()) {
        return Err(bad(format!("the shards hold {} games, not the simulation's", records.len())));
    }
    // Every game of the simulation once: each scenario, variant and game number, in the order just sorted.
    let games = (0..scenarios).flat_map(|s| (0..variants).flat_map(move |v| (0..config.games).map(move |i| (s, v, i))));
    if let Some(r) =
        records.iter().zip(games).find(|(r, game)| (r.scenario, r.variant, r.index) != *game).map(|(r, _)| r)
    {
        let game = format!("scenario {}, variant {}, game {}", r.scenario, r.variant, r.index);
        return Err(bad(format!("the shards do not hold each game of the simulation once (at {game})")));
    }
    let (variants, options) = (config.variant_list(), config.option_table()?);
    let seconds = shards.iter().map(|(_, s)| s.seconds).sum();
    let threads = shards.iter().map(|(_, s)| s.threads).max().unwrap_or(1);
    Ok(Simulation::new(config, variants, options, records, seconds, threads))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Axis;
    use crate::report::Report;
    use crate::run::run;

    fn config() -> SimConfig {
        let mut c = SimConfig::of(vec![ScenarioSource::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap()]);
        c.games = 9;
        c.seed = 5;
        c.compare(vec![Axis::parse("to_hit=4,5").unwrap()]).unwrap();
        c
    }

    /// The report without what depends on the machine (time, threads).
    fn numbers(report: &Report) -> serde_json::Value {
        let mut v: serde_json::Value = serde_json::from_str(&report.to_json()).unwrap();
        for key in ["seconds", "games_per_second", "threads"] {
            v.as_object_mut().unwrap().remove(key);
        }
        v
    }

    #[test]
    fn merged_shards_give_exactly_the_unsharded_report() {
        let dir = std::env::temp_dir().join(format!("pacw-shards-{}", std::process::id()));
        let whole = run(&config(), &|| {}).unwrap();
        let mut paths = Vec::new();
        for k in 1..=3 {
            let mut c = config();
            c.shard = Some(Shard { k, n: 3 });
            let part = dir.join(format!("part{k}"));
            write_shard(&run(&c, &|| {}).unwrap(), &part).unwrap();
            paths.push(part);
        }
        let merged = merge(read_shards(&paths).unwrap()).unwrap();
        assert_eq!(merged.records, whole.records);
        assert_eq!(numbers(&Report::new(&merged, None)), numbers(&Report::new(&whole, None)));
        // Two shards of three are not the simulation.
        let err = merge(read_shards(&paths[..2]).unwrap()).unwrap_err().to_string();
        assert!(err.contains("missing shards 3/3"), "{err}");
        // A shard of another simulation is refused.
        let mut other = config();
        other.seed = 6;
        other.shard = Some(Shard { k: 3, n: 3 });
        write_shard(&run(&other, &|| {}).unwrap(), &dir.join("other")).unwrap();
        let mixed = vec![paths[0].clone(), paths[1].clone(), dir.join("other")];
        let err = merge(read_shards(&mixed).unwrap()).unwrap_err().to_string();
        assert!(err.contains("another simulation"), "{err}");
        std::fs::write(dir.join("junk.json"), "{}").unwrap();
        assert!(read_shards(&[dir.join("junk.json")]).is_err());
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_counts_of_a_variant_s_own_terrain_merge_back_whole() {
        let dir = std::env::temp_dir().join(format!("pacw-shards-terrain-{}", std::process::id()));
        let config = || {
            let scenario = crate::record::tests::entrenched();
            let mut c = SimConfig::new(scenario, crate::record::tests::ENTRENCHED, "entrenched.toml");
            c.games = 6;
            c
        };
        let whole = run(&config(), &|| {}).unwrap();
        assert!(whole.records.iter().any(|r| r.stats.terrain.iter().any(|t| t.moves_ended > 0)));
        let mut paths = Vec::new();
        for k in 1..=2 {
            let mut c = config();
            c.shard = Some(Shard { k, n: 2 });
            let part = dir.join(format!("part{k}"));
            write_shard(&run(&c, &|| {}).unwrap(), &part).unwrap();
            paths.push(part);
        }
        let merged = merge(read_shards(&paths).unwrap()).unwrap();
        assert_eq!(merged.records, whole.records);
        let report = Report::new(&merged, None);
        assert_eq!(numbers(&report), numbers(&Report::new(&whole, None)));
        assert_eq!(report.main.own_terrains[0][0].name, "entrenchments");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_shard_numbered_outside_its_simulation_is_refused() {
        let mut c = config();
        c.shard = Some(Shard { k: 1, n: 3 });
        let sim = run(&c, &|| {}).unwrap();
        for k in [0, 4] {
            let mut file = shard_file(&sim).unwrap();
            file.shard.k = k;
            let err = merge(vec![(PathBuf::from("s.json"), file)]).unwrap_err().to_string();
            assert!(err.contains(&format!("shard {k}/3 does not exist")), "{err}");
        }
    }

    #[test]
    fn a_shard_whose_games_are_not_the_simulations_is_refused_not_a_panic() {
        let mut c = config();
        c.shard = Some(Shard { k: 1, n: 1 });
        let sim = run(&c, &|| {}).unwrap();
        let whole = shard_file(&sim).unwrap();
        assert!(merge(vec![(PathBuf::from("s.json"), whole.clone())]).is_ok(), "the whole simulation merges");
        for damage in
            [|r: &mut GameRecord| r.scenario = 99, |r: &mut GameRecord| r.variant = 7, |r: &mut GameRecord| r.index = 3]
        {
            let mut file = whole.clone();
            damage(&mut file.records[0]);
            let err = merge(vec![(PathBuf::from("s.json"), file)]).unwrap_err().to_string();
            assert!(err.contains("each game of the simulation once"), "{err}");
        }
    }

    #[test]
    fn a_shard_file_asking_for_too_many_shards_is_refused_as_it_is_read() {
        let mut c = config();
        c.shard = Some(Shard { k: 1, n: 3 });
        let sim = run(&c, &|| {}).unwrap();
        let json = serde_json::to_string(&shard_file(&sim).unwrap()).unwrap();
        let dir = std::env::temp_dir().join(format!("pacw-shard-huge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        for (shard, why) in
            [("1/99999999999999", "does not exist"), ("0/3", "does not exist"), ("2/1", "does not exist")]
        {
            let (k, n) = shard.split_once('/').unwrap();
            let damaged = json.replace(r#""shard":{"k":1,"n":3}"#, &format!(r#""shard":{{"k":{k},"n":{n}}}"#));
            assert_ne!(damaged, json, "the shard was rewritten");
            std::fs::write(dir.join("s.json"), damaged).unwrap();
            let err = read_shards(&[dir.join("s.json")]).unwrap_err().to_string();
            assert!(err.contains("not a shard file") && err.contains(why), "{shard}: {err}");
        }
        std::fs::remove_dir_all(dir).unwrap();
    }
}
