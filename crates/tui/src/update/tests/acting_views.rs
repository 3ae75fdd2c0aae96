//! Marks and views: a marked item that a view switch hides keeps its mark but no action
//! reaches it.

use super::act;
use super::acting::{command, copies};
use super::triage::stored;
use crate::action::{Action, Msg};
use crate::effect::{Effect, Handover, Write};
use crate::testkit::{detail, now, started_harness};

#[test]
fn a_marked_item_hidden_by_a_view_switch_is_skipped_by_every_action() {
    let mut h = started_harness(120, 30, 50, true);
    h.state.triage.advance = false;
    h.store
        .write(|s| {
            s.put_detail(&detail(0), now())?;
            s.put_detail(&detail(1), now())
        })
        .unwrap();
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::ToggleStar); // id00001 starred
    act(&mut h, Action::Top);
    act(&mut h, Action::ToggleMark); // id00000
    act(&mut h, Action::ToggleMark); // id00001
    act(&mut h, Action::View(2)); // Starred: id00001 only
    assert_eq!(h.state.visible_len(), 1);
    assert_eq!(h.state.acting.marks.len(), 2, "the marks stay");
    let only_one = |text: &str| text.contains("id00001") && !text.contains("id00000");
    let copied = |effects: &[Effect]| copies(effects).first().map(|c| c.1.clone());
    for action in [Action::CopyId, Action::CopyJson, Action::CopyMarkdown] {
        let text = copied(&act(&mut h, action)).unwrap();
        assert!(only_one(&text), "{action:?}: {text}");
    }
    let text = copied(&act(&mut h, Action::CopyMessage)).unwrap();
    assert!(
        text.contains("number 1") && !text.contains("number 0"),
        "{text}"
    );
    let text = copied(&act(&mut h, Action::CopyLink)).unwrap();
    assert!(text.ends_with("/1001"), "{text}");
    h.state.acting.commands = vec![command("one")];
    let effects = act(&mut h, Action::Pipe);
    let [Effect::Terminal(Handover::Pipe { input, items, .. })] = &effects[..] else {
        panic!("{effects:?}");
    };
    assert_eq!(items.len(), 1);
    assert!(only_one(input), "{input}");
    // Done last: it takes id00001 out of the view too.
    for action in [Action::ToggleSeen, Action::ToggleDone] {
        let effects = h.apply(Msg::Action(action));
        assert!(
            matches!(&effects[..], [Effect::Write(Write::Triage { ids, .. })] if ids == &["id00001"]),
            "{action:?}: {effects:?}"
        );
        h.settle(effects);
    }
    let hidden = stored(&h, "id00000");
    assert!(!hidden.done && !hidden.starred, "not reached: {hidden:?}");
}
