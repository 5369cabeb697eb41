//! Tests of the game rules loader: the official file, each kind of broken table refused, the
//! regulation pin, reduced rules.

use crate::crypto::sha256;

use super::tests_support::OFFICIAL;
use super::*;

fn edit(f: impl FnOnce(&mut serde_json::Value)) -> Vec<u8> {
    let mut v: serde_json::Value = serde_json::from_slice(OFFICIAL).unwrap();
    f(&mut v);
    serde_json::to_vec_pretty(&v).unwrap()
}

#[test]
fn the_official_rules_file_loads_and_matches_g1_g2_g3() {
    let r = GameRules::from_json(OFFICIAL).unwrap();
    assert_eq!(r.game(), OFFICIAL_GAME_ID);
    assert_eq!(r.block_size(), 800_000); // G-1
    assert_eq!(r.prices_cents(), &[50, 100, 200]); // G-2
    assert_eq!(r.winning_units(), 170_302); // G-3
    assert_eq!(r.losing_units(), 629_698); // G-3, G-8
    assert_eq!(r.total_prizes_cents(0), 28_000_000); // €280,000
    assert_eq!(r.total_prizes_cents(1), 56_000_000); // €560,000
    assert_eq!(r.total_prizes_cents(2), 112_000_000); // €1,120,000
    // G-3: 70% of sales at every price.
    for (i, p) in r.prices_cents().iter().enumerate() {
        assert_eq!(r.total_prizes_cents(i) * 10, 800_000 * p * 7);
    }
    assert_eq!(r.prize_cents(10, 2), Some(1_000_000));
    assert_eq!(r.prize_cents(4, 0), Some(50));
    assert_eq!(r.prize_cents(0, 1), Some(0));
    assert_eq!(r.prize_cents(3, 1), None);
    assert_eq!(r.sha256(), &sha256(OFFICIAL));
}

#[test]
fn a_table_whose_units_do_not_add_up_is_refused() {
    let bad = edit(|v| v["prize_table"][2]["units"] = 201.into());
    let e = GameRules::from_json(&bad).unwrap_err();
    assert!(
        matches!(
            e,
            RulesError::DoesNotAddUp {
                computed: 170_303,
                declared: 170_302,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.to_string().contains("winning units"), "{e}");
}

#[test]
fn a_table_whose_amounts_do_not_add_up_is_refused() {
    // Consistent scaling, but the €2.50 prize becomes €3: the €280,000 total no longer holds.
    let bad = edit(|v| v["prize_table"][4]["prize_cents"] = serde_json::json!([300, 600, 1200]));
    let e = GameRules::from_json(&bad).unwrap_err();
    assert!(
        matches!(
            e,
            RulesError::DoesNotAddUp {
                declared: 28_000_000,
                ..
            }
        ),
        "{e}"
    );
}

#[test]
fn losing_units_must_complete_the_block() {
    let bad = edit(|v| v["totals"]["losing_units"] = 629_697.into());
    assert!(matches!(
        GameRules::from_json(&bad).unwrap_err(),
        RulesError::DoesNotAddUp {
            computed: 799_999,
            declared: 800_000,
            ..
        }
    ));
}

#[test]
fn amounts_that_do_not_scale_x1_x2_x4_are_refused() {
    let bad = edit(|v| v["prize_table"][6]["prize_cents"] = serde_json::json!([50, 100, 250]));
    let e = GameRules::from_json(&bad).unwrap_err();
    assert!(e.to_string().contains("does not scale"), "{e}");
}

#[test]
fn tiers_must_be_4_to_10_once_each() {
    let bad = edit(|v| v["prize_table"][6]["matches"] = 3.into());
    assert!(
        GameRules::from_json(&bad)
            .unwrap_err()
            .to_string()
            .contains("G-7")
    );
    let bad = edit(|v| {
        v["prize_table"].as_array_mut().unwrap().pop();
    });
    assert!(GameRules::from_json(&bad).is_err());
}

#[test]
fn prizes_must_grow_with_matches() {
    let bad = edit(|v| {
        v["prize_table"][0]["prize_cents"] = serde_json::json!([25_000, 50_000, 100_000]);
        v["totals"]["prize_cents"] = serde_json::json!([27_775_000, 55_550_000, 111_100_000]);
    });
    assert!(
        GameRules::from_json(&bad)
            .unwrap_err()
            .to_string()
            .contains("must exceed")
    );
}

#[test]
fn too_few_or_duplicate_symbols_are_refused() {
    let bad = edit(|v| {
        v["symbols"].as_array_mut().unwrap().truncate(5);
    });
    assert!(
        GameRules::from_json(&bad)
            .unwrap_err()
            .to_string()
            .contains("symbols")
    );
    let bad = edit(|v| v["symbols"][3] = v["symbols"][0].clone());
    assert!(
        GameRules::from_json(&bad)
            .unwrap_err()
            .to_string()
            .contains("twice")
    );
}

#[test]
fn a_grid_other_than_3x6_with_3_offered_is_refused() {
    let bad = edit(|v| v["grid"]["columns"] = 5.into());
    assert!(
        GameRules::from_json(&bad)
            .unwrap_err()
            .to_string()
            .contains("G-4")
    );
    let bad = edit(|v| v["grid"]["offered_symbols"] = 2.into());
    assert!(
        GameRules::from_json(&bad)
            .unwrap_err()
            .to_string()
            .contains("G-6")
    );
}

#[test]
fn a_consistent_but_altered_official_table_is_refused_by_the_regulation_pin() {
    // Moves one unit from tier 5 to tier 4 and fixes up the totals: internally consistent,
    // but it is not G-3.
    let bad = edit(|v| {
        v["prize_table"][5]["units"] = 98_999.into();
        v["prize_table"][6]["units"] = 46_001.into();
        v["totals"]["prize_cents"] = serde_json::json!([27_999_950, 55_999_900, 111_999_800]);
    });
    let e = GameRules::from_json(&bad).unwrap_err();
    assert!(
        matches!(e, RulesError::NotTheRegulation { rule: "G-3", .. }),
        "{e}"
    );
    // The same table under another game id passes: the pin is for the regulation's game only.
    let other = edit(|v| {
        v["game"] = "noel-test".into();
        v["prize_table"][5]["units"] = 98_999.into();
        v["prize_table"][6]["units"] = 46_001.into();
        v["totals"]["prize_cents"] = serde_json::json!([27_999_950, 55_999_900, 111_999_800]);
    });
    assert!(GameRules::from_json(&other).is_ok());
}

#[test]
fn reduced_rules_load_and_keep_the_official_amounts() {
    let official = GameRules::from_json(OFFICIAL).unwrap();
    let r = GameRules::from_json(&reduced_rules_json(
        &official,
        "noel-test",
        100,
        [1, 1, 1, 2, 3, 9, 5],
    ))
    .unwrap();
    assert_eq!(
        (r.block_size(), r.winning_units(), r.losing_units()),
        (100, 22, 78)
    );
    assert_eq!(r.prize_cents(10, 1), official.prize_cents(10, 1));
    // The regulation's game id cannot be given to a reduced table.
    let bad = reduced_rules_json(&official, OFFICIAL_GAME_ID, 100, [1, 1, 1, 2, 3, 9, 5]);
    assert!(matches!(
        GameRules::from_json(&bad).unwrap_err(),
        RulesError::NotTheRegulation { rule: "G-1", .. }
    ));
}

#[test]
fn unknown_fields_and_wrong_format_are_refused() {
    let bad = edit(|v| v["extra"] = 1.into());
    assert!(matches!(
        GameRules::from_json(&bad).unwrap_err(),
        RulesError::Json(_)
    ));
    let bad = edit(|v| v["format"] = "urne-game-rules-v2".into());
    assert!(
        GameRules::from_json(&bad)
            .unwrap_err()
            .to_string()
            .contains("format")
    );
}

#[test]
fn the_shipped_official_game_loads() {
    let r = GameRules::noel_de_la_chance_2015();
    assert_eq!(r.block_size(), G1_BLOCK_SIZE);
    assert_eq!(
        crate::rules::official::standing(OFFICIAL_GAME_ID, &sha256(NOEL_DE_LA_CHANCE_2015)),
        crate::rules::official::Standing::Official
    );
}
