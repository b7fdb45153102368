import Foundation
import QuireCore
import Testing

/// What `u` writes, decided from the action's version, the one before it and the item now.
@Suite struct UndoPlanTests {
    let created = Date(timeIntervalSince1970: 1_800_000_000)

    func item(title: String = "Buy milk", body: String = "", done: Bool = false, deleted: Bool = false) -> Item {
        Item(id: "01", kind: .task, title: title, body: body, done: done, createdAt: created, deleted: deleted)
    }

    @Test func anEditIsTakenBackInTheFieldsItChangedOnly() {
        let before = item()
        let action = item(title: "Buy oat milk")
        // Another device wrote the body since; undo must keep it.
        let current = item(title: "Buy oat milk", body: "two litres")
        #expect(
            UndoPlan.taking(back: action, before: before, current: current) == .revert([.title: .string("Buy milk")]))
    }

    @Test func aFieldAlreadyBackToItsOldValueNeedsNothing() {
        let plan = UndoPlan.taking(
            back: item(title: "B", done: true), before: item(title: "A"), current: item(title: "A", done: true))
        #expect(plan == .revert([.done: .bool(false)]))
        let none = UndoPlan.taking(back: item(title: "B"), before: item(title: "A"), current: item(title: "A"))
        #expect(none == .cannot("it holds those values already"))
        #expect(!none.wroteAChange)
    }

    @Test func createDeleteAndRestoreAreTakenBackByTheirOpposites() {
        #expect(UndoPlan.taking(back: item(), before: nil, current: item()) == .remove)
        #expect(UndoPlan.taking(back: item(deleted: true), before: item(), current: item(deleted: true)) == .undelete)
        #expect(UndoPlan.taking(back: item(), before: item(deleted: true), current: item()) == .deleteAgain)
    }

    @Test func whatHappenedSinceCanMakeAnActionImpossibleToTakeBack() {
        #expect(
            UndoPlan.taking(back: item(title: "B"), before: item(), current: item(title: "B", deleted: true))
                == .cannot("it was deleted since"))
        #expect(
            UndoPlan.taking(back: item(deleted: true), before: item(), current: item())
                == .cannot("it was brought back since"))
        #expect(
            UndoPlan.taking(back: item(), before: nil, current: item(deleted: true)) == .cannot("it is deleted already")
        )
    }

    @Test func theStatusBarSaysWhatWasTakenBack() {
        #expect(UndoneAction(itemID: "01", title: "Buy milk", plan: .undelete).text == "Undone: delete of “Buy milk”")
        #expect(
            UndoneAction(itemID: "01", title: "Buy milk", plan: .cannot("it was deleted since")).text
                == "Cannot undo the last change to “Buy milk”: it was deleted since; u goes on to the one before")
    }
}
