//! Mutation-testing kills for the draw module (docs/testing.md, "Mutation testing").

use super::*;

#[test]
fn an_entry_list_with_an_account_twice_does_not_decode() {
    let a = AccountEntries {
        account: [1; 32],
        entries: 2,
    };
    let b = AccountEntries {
        account: [2; 32],
        entries: 1,
    };
    let ok = encode_list(&[a, b]);
    assert_eq!(decode_list(&ok).map(|l| l.len()), Some(2));
    assert_eq!(decode_list(&encode_list(&[a, a])), None);
    assert_eq!(decode_list(&encode_list(&[b, a])), None);
    // An account with no entries is never in the list.
    let none = AccountEntries {
        account: [3; 32],
        entries: 0,
    };
    assert_eq!(decode_list(&encode_list(&[a, b, none])), None);
}
