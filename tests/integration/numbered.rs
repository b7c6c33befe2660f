//! Numbered deals: the own generator's golden deals and consistency, PySol's
//! published game 14934, and `spider deal` on the command line.

use assert_cmd::Command;
use predicates::prelude::*;
use proptest::prelude::*;
use spider_analyzer::cards::{Card, CardSlot, SuitCount};
use spider_analyzer::deal::{Deal, Rules, numbered, pysol, yaml};

fn card(text: &str) -> Card {
    text.parse().unwrap()
}

/// The `index`-th card from the bottom of each pile (0-based), as text, or
/// `--` where a pile is shorter.
fn layout_row(deal: &Deal, index: usize) -> String {
    deal.piles
        .iter()
        .map(|pile| {
            let cards: Vec<String> = pile
                .face_down
                .iter()
                .map(|slot| slot.to_string())
                .chain(pile.face_up.iter().map(|card| card.to_string()))
                .collect();
            cards
                .get(index)
                .cloned()
                .unwrap_or_else(|| "--".to_string())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn face_up(deal: &Deal) -> String {
    deal.piles
        .iter()
        .map(|pile| pile.face_up.last().expect("a face-up card").to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn stock_row(deal: &Deal, row: usize) -> String {
    deal.stock[row]
        .iter()
        .map(|slot| slot.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// How often each of the 52 cards appears; every slot must be known.
fn card_counts(deal: &Deal) -> [usize; Card::DISTINCT] {
    let mut counts = [0; Card::DISTINCT];
    for (_, slot) in deal.slots() {
        let card = slot.known().expect("numbered deals have no XX");
        counts[card.index() as usize] += 1;
    }
    counts
}

fn assert_two_decks(deal: &Deal) {
    let counts = card_counts(deal);
    for (index, &count) in counts.iter().enumerate() {
        let card = Card::from_index(index as u8);
        let expected = if deal.suits.suits().contains(&card.suit()) {
            deal.suits.copies()
        } else {
            0
        };
        assert_eq!(count, expected, "{card}");
    }
}

fn suit_count(count: usize) -> SuitCount {
    SuitCount::from_count(count).unwrap()
}

#[test]
fn own_generator_golden_deals() {
    // (number, suits, face-up cards of piles 1..10, stock row 1). A change
    // of the generator breaks every saved deal number: it must fail here.
    let golden = [
        (
            1,
            1,
            "7S 10S 4S KS 8S 3S AS KS 2S 4S",
            "8S 2S JS 2S 9S 2S 5S 9S 5S 7S",
        ),
        (
            1,
            2,
            "7H 10S 4H KS 8H 3H AH KS 2H 4H",
            "8S 2S JS 2H 9S 2S 5S 9H 5S 7S",
        ),
        (
            1,
            4,
            "7H 10D 4H KS 8C 3H AC KS 2H 4C",
            "8D 2D JD 2C 9D 2S 5S 9C 5D 7S",
        ),
        (
            2,
            1,
            "QS 4S 9S 4S KS 10S QS 10S 8S 3S",
            "2S QS 9S 5S 10S 2S AS 5S 3S 3S",
        ),
        (
            2,
            2,
            "QH 4H 9S 4H KH 10H QS 10H 8S 3H",
            "2S QH 9H 5H 10S 2H AH 5H 3S 3S",
        ),
        (
            2,
            4,
            "QC 4C 9S 4H KC 10C QD 10C 8S 3C",
            "2D QC 9H 5H 10D 2C AH 5C 3S 3D",
        ),
        (
            1000,
            1,
            "3S 2S 6S 5S 9S 7S 8S KS AS JS",
            "4S 4S 8S 5S 10S AS 5S AS 2S 9S",
        ),
        (
            1000,
            2,
            "3H 2S 6S 5S 9S 7H 8S KS AS JS",
            "4S 4S 8H 5S 10S AH 5H AH 2H 9H",
        ),
        (
            1000,
            4,
            "3H 2S 6D 5D 9S 7H 8S KS AS JS",
            "4S 4D 8C 5S 10D AH 5H AC 2C 9C",
        ),
    ];
    for (number, suits, up, row1) in golden {
        let deal = numbered::deal(number, suit_count(suits), Rules::Standard);
        assert_eq!(face_up(&deal), up, "deal {number}, {suits} suits");
        assert_eq!(stock_row(&deal, 0), row1, "deal {number}, {suits} suits");
    }
}

#[test]
fn own_deals_have_microsofts_layout() {
    let deal = numbered::deal(42, SuitCount::Four, Rules::Relaxed);
    assert_eq!(deal.rules, Rules::Relaxed);
    let sizes: Vec<usize> = deal.piles.iter().map(|p| p.face_down.len()).collect();
    assert_eq!(sizes, [5, 5, 5, 5, 4, 4, 4, 4, 4, 4]);
    assert!(deal.piles.iter().all(|p| p.face_up.len() == 1));
    assert_eq!(deal.stock.len(), 5);
    assert!(deal.removed.is_empty());
    assert!(deal.validate().is_ok());
}

proptest! {
    #[test]
    fn every_own_deal_holds_two_decks(number in any::<u64>(), suits in prop::sample::select(vec![1usize, 2, 4])) {
        let deal = numbered::deal(number, suit_count(suits), Rules::Standard);
        assert_two_decks(&deal);
        prop_assert_eq!(deal.clone(), numbered::deal(number, suit_count(suits), Rules::Standard));
    }

    #[test]
    fn every_pysol_game_holds_two_decks(game in 0u128..=pysol::MAX_GAME) {
        let deal = pysol::deal(game, Rules::Standard).unwrap();
        assert_two_decks(&deal);
    }
}

#[test]
fn pysol_game_14934_as_published() {
    let deal = pysol::deal(14934, Rules::Standard).unwrap();
    // Row i is the i-th card from the bottom of piles 1..10.
    let published = [
        "10S 2H 4S QD 3D 10D 9H AS JS JD",
        "3C 4H 3H QH 8C 10H 3D 4D 8H AH",
        "KS KC 10C 7C 8S 3S 7D 3S 6C 5C",
        "4C 3H 4D 7S 2S 3C 5C 8C QC 5S",
        "JH KH 2H QC JH 6H QS 2C KD KS",
    ];
    for (index, row) in published.iter().enumerate() {
        assert_eq!(layout_row(&deal, index), *row, "row {}", index + 1);
    }
    // PySol gives the sixth card to piles 1, 4, 7 and 10.
    assert_eq!(layout_row(&deal, 5), "5S -- -- 2D -- -- 6H -- -- 5D");
    let sizes: Vec<usize> = deal.piles.iter().map(|p| p.face_down.len()).collect();
    assert_eq!(sizes, [5, 4, 4, 5, 4, 4, 5, 4, 4, 5]);
    assert_eq!(face_up(&deal), "5S KH 2H 2D JH 6H 6H 2C KD 5D");
    // The stock, from an independent reimplementation of PySol's talon.
    assert_eq!(stock_row(&deal, 0), "6D AH 10H 9S 9C 6C AC 6S 9D 4C");
    assert_eq!(stock_row(&deal, 4), "9D KC AD QD JC JD 7S 7D 9S QS");
    assert_two_decks(&deal);
}

#[test]
fn pysol_mersenne_twister_games() {
    // Games from 32000 on use Python's Mersenne Twister; these layouts come
    // from a reimplementation on Python's own `random` module.
    let cases = [
        (
            32_000u128,
            "KH 9H 10D 6D 3D 9C 10H JS JS 6C",
            "3S 5S 2C AC 5C 5S 3H QS 9S 3D",
            "AD AD AH 9H 6C 8S 6H KS 10C KH",
        ),
        (
            1u128 << 64,
            "JD KH QD QC JC 10C 4D 7C 7D 2D",
            "5S KS 3S 5D 8H AC QS 8C JH 9H",
            "4H 10S JS 2C 7S 2S AC 7D AS 3H",
        ),
        (
            pysol::MAX_GAME,
            "2C 4C 8C 7S KS 5S AH 5H JS 6S",
            "6H 3S 4D 9H 10C 7D KD AD KD 9S",
            "6D 3D 10D 9D QC 2H 6H 7C 2D AH",
        ),
    ];
    for (game, bottom, up, row1) in cases {
        let deal = pysol::deal(game, Rules::Standard).unwrap();
        assert_eq!(layout_row(&deal, 0), bottom, "game {game}");
        assert_eq!(face_up(&deal), up, "game {game}");
        assert_eq!(stock_row(&deal, 0), row1, "game {game}");
    }
    // The last game of Microsoft's generator, and game 0.
    let deal = pysol::deal(31_999, Rules::Standard).unwrap();
    assert_eq!(layout_row(&deal, 0), "3D 5S 2H 7H AH QS JS 7S 9C AC");
    let deal = pysol::deal(0, Rules::Standard).unwrap();
    assert_eq!(layout_row(&deal, 0), "KH 7D 10S AS 4C 4S 10H 4H 5H JD");
}

fn spider() -> Command {
    Command::cargo_bin("spider").unwrap()
}

#[test]
fn cli_writes_an_own_deal() {
    let out = spider()
        .args([
            "deal", "--number", "1", "--suits", "2", "--rules", "relaxed",
        ])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.starts_with("# spider deal --number 1"), "{text}");
    // What is written reads back as the very deal the generator makes.
    let written = yaml::from_str(&text, std::path::Path::new("stdout")).unwrap();
    assert_eq!(written, numbered::deal(1, SuitCount::Two, Rules::Relaxed));
    assert_eq!(written.piles[0].face_up, [card("7H")]);
    assert_eq!(
        written.stock[0].map(|slot| slot.to_string()).join(" "),
        "8S 2S JS 2H 9S 2S 5S 9H 5S 7S"
    );
}

#[test]
fn cli_writes_a_pysol_deal_to_a_file_and_never_over_one() {
    let dir = crate::scratch();
    let path = dir.path().join("14934.yaml");
    let path_text = path.to_str().unwrap();
    spider()
        .args(["deal", "--pysol", "14934", "-o", path_text])
        .assert()
        .success()
        .stdout("");
    let text = std::fs::read_to_string(&path).unwrap();
    let written = yaml::from_str(&text, &path).unwrap();
    assert_eq!(written, pysol::deal(14934, Rules::Standard).unwrap());
    let pile_1: Vec<String> = written.piles[0]
        .face_down
        .iter()
        .map(|c| c.to_string())
        .collect();
    assert_eq!(pile_1.join(" "), "10S 3C KS 4C JH");
    assert_eq!(written.piles[0].face_up, [card("5S")]);
    spider()
        .args(["deal", "--pysol", "1", "-o", path_text])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
    spider()
        .args(["deal", "--pysol", "1", "-o", path_text, "--force"])
        .assert()
        .success();
    assert_ne!(std::fs::read_to_string(&path).unwrap(), text);
}

#[test]
fn cli_refuses_bad_numbers_and_options() {
    spider()
        .args(["deal", "--pysol", "100000000000000000001"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("0 to 100000000000000000000"));
    spider()
        .args(["deal", "--pysol", "5", "--suits", "2"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("4-suit"));
    spider().args(["deal"]).assert().code(2);
    spider()
        .args(["deal", "--number", "1", "--pysol", "1"])
        .assert()
        .code(2);
    spider().args(["deal", "--number", "-3"]).assert().code(2);
    spider()
        .args(["deal", "--number", "3", "--suits", "3"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("1, 2 or 4"));
    spider()
        .args(["deal", "--number", "3", "--rules", "easy"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("standard"));
}

#[test]
fn slots_are_all_known() {
    let deal = pysol::deal(7, Rules::Standard).unwrap();
    assert!(deal.slots().all(|(_, slot)| slot != CardSlot::Unknown));
}
