//! `pacw users` on a data folder: list, rename, reset a password (random or from standard input), disable and
//! enable; an unknown name is exit code 1 with a message.

use pacw_server::store::Store;
use std::io::Write;
use std::process::{Command, Output, Stdio};

fn pacw(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_pacw"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("pacw runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn the_operator_lists_renames_resets_and_disables_accounts() {
    let dir = std::env::temp_dir().join(format!("pacw-cli-users-{}", pacw_server::tokens::new_game_id()));
    let d = dir.to_str().unwrap();
    {
        let store = Store::open(&dir).unwrap();
        let hash = pacw_server::session::hash_password("a long password").unwrap();
        store.create_account("Bea", &hash, &Default::default()).unwrap().unwrap();
        store.create_account("Cy", &hash, &Default::default()).unwrap().unwrap();
    }
    let out = pacw(&["users", "--data", d, "list"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed = text(&out.stdout);
    assert!(listed.contains("Bea") && listed.contains("Cy") && listed.contains("unrated"), "{listed}");
    let out = pacw(&["users", "--data", d, "rename", "bea", "Beatrice"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let out = pacw(&["users", "--data", d, "rename", "Cy", "beatrice"], "");
    assert!(!out.status.success() && text(&out.stderr).contains("taken"), "{}", text(&out.stderr));
    let out = pacw(&["users", "--data", d, "reset-password", "Beatrice"], "");
    let said = text(&out.stdout);
    let password = said.split("new password: ").nth(1).unwrap().lines().next().unwrap().to_string();
    let store = Store::open(&dir).unwrap();
    let bea = store.account_named("beatrice").unwrap().unwrap();
    assert!(pacw_server::session::verify_password(&password, &bea.password));
    let out =
        pacw(&["users", "--data", d, "reset-password", "Beatrice", "--password-stdin"], "chosen by the operator\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bea = store.account_named("beatrice").unwrap().unwrap();
    assert!(pacw_server::session::verify_password("chosen by the operator", &bea.password));
    let out = pacw(&["users", "--data", d, "disable", "Beatrice"], "");
    assert!(out.status.success());
    assert!(store.account_named("beatrice").unwrap().unwrap().disabled);
    assert!(text(&pacw(&["users", "--data", d, "list", "--json"], "").stdout).contains("\"disabled\": true"));
    pacw(&["users", "--data", d, "enable", "Beatrice"], "");
    assert!(!store.account_named("beatrice").unwrap().unwrap().disabled);
    let out = pacw(&["users", "--data", d, "disable", "Nobody"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no account is called 'Nobody'"), "{}", text(&out.stderr));
    drop(store);
    std::fs::remove_dir_all(&dir).unwrap();
}
