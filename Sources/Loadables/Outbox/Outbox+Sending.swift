/// Sending: one lane per scope, which asks ``OutboxLaneBook`` what to do next and does it.
extension Outbox {
  /// What a scope's lane does next.
  enum LaneStep {
    case done
    case waitOnline(Connectivity)
    case sleep(Duration, any Clock<Duration>)
    case send(Queued, OutboxHandler, any OutboxEdit, OutboxContext)
  }

  /// Starts sending `scopeID`'s edits, unless its lane runs already.
  func kick(_ scopeID: String) {
    guard lanes[scopeID] == nil, store != nil else { return }
    // The lane holds the outbox weakly: it must not keep a dropped store's outbox alive while
    // it waits for the network or a backoff. A cancelled lane (its edit discarded while it
    // waited, see `discard`) asks for no next step: a new lane has its scope.
    lanes[scopeID] = Task { @MainActor [weak self] in
      while !Task.isCancelled {
        guard let step = self?.nextStep(scopeID) else { return }
        switch step {
        case .done:
          return
        case .waitOnline(let connectivity):
          await connectivity.untilOnline()
        case .sleep(let delay, let clock):
          try? await clock.sleep(for: delay)
        case .send(let queued, let handler, let edit, let context):
          var failure: (any Error)?
          do {
            try await handler.send(edit, context)
          } catch {
            failure = error
          }
          switch self?.sent(queued, handler: handler, failure: failure) {
          case .sleep(let delay, let clock)? where !Task.isCancelled:
            try? await clock.sleep(for: delay)
          default:
            break
          }
        }
      }
    }
  }

  /// The next edit of `scopeID` to send, or what to wait for first; `.done` ends the lane.
  /// ``OutboxLaneBook`` decides from the facts gathered here; this performs what it decides.
  ///
  /// `justLooked`: the folder was looked at in this step (it is not looked at twice).
  func nextStep(_ scopeID: String, justLooked: Bool = false) -> LaneStep {
    for queued in queue where queued.scopeID == scopeID { queued.activity = .idle }
    guard let store else {
      endLane(scopeID)
      return .done
    }
    let queued = queue.first { $0.scopeID == scopeID && !$0.isFailed }
    let handler = queued.flatMap { handlers[$0.item.name] }
    let lane = OutboxLaneBook(
      head: queued.map {
        OutboxLaneBook.Head(
          canSend: $0.edit != nil && handler != nil, isSaved: $0.isSaved, sendsOnce: $0.sendsOnce)
      },
      isOnline: store.network.isOnlineNow, sender: sender(at: store.now),
      justLooked: justLooked)
    switch (lane.next(interval: Self.lookInterval), queued) {
    case (.lookForWrites, _):
      readSharedIfWritten()
      return nextStep(scopeID, justLooked: true)
    case (.end, _), (_, nil):
      endLane(scopeID)
      return .done
    case (.endWithoutHandler, let queued?):
      reportNoHandler(queued)
      endLane(scopeID)
      redecide([scopeID])
      return .done
    case (.save, let queued?):
      if save(queued) { return nextStep(scopeID, justLooked: justLooked) }
      queued.saveFailures += 1
      let delay = handler?.backoff.delay(forRetry: queued.saveFailures) ?? Self.senderInterval
      queued.activity = .savingAgain(
        attempt: queued.saveFailures, nextTry: store.wallDate(at: store.now + delay))
      redecide([scopeID])
      return .sleep(delay, store.clock)
    case (.dropOffline, let queued?):
      dropSentOnce(queued, error: EditOffline())
      return nextStep(scopeID)
    case (.waitOnline, _?):
      redecide([scopeID])
      return .waitOnline(store.network)
    case (.takeLock, _?):
      guard let read = senderLock?.take() else {
        redecide([scopeID])
        return .sleep(Self.senderInterval, store.clock)
      }
      switch read {
      case .everything: readShared(includingOwn: true)
      case .newRecords: readShared()
      case .nothing: lastSharedRead = store.now
      }
      return nextStep(scopeID, justLooked: true)
    case (.send, let queued?):
      guard let edit = queued.edit, let handler else {
        endLane(scopeID)
        return .done
      }
      change([scopeID]) {
        queued.item.attempt += 1
        queued.activity = .sending
      }
      let context = OutboxContext(
        idempotencyKey: queued.idempotencyKey, attempt: queued.item.attempt, id: queued.item.id)
      if LoadEvents.isOn { reportEvent(.editSent, queued, attempt: queued.item.attempt) }
      return .send(queued, handler, edit, context)
    }
  }

  /// The handler of `queued` returned or threw; returns what the lane does before its next
  /// edit (a backoff), if any.
  func sent(_ queued: Queued, handler: OutboxHandler, failure: (any Error)?) -> LaneStep? {
    guard let store else { return nil }
    if queued.isDiscarded { return endDiscardedSend(queued) }
    if isDiscardedElsewhere(queued) { return endDiscardedElsewhere(queued) }
    switch failure {
    case nil:
      commit(queued)
      end(queued, .committed)
      for key in queued.edit?.invalidates ?? [] {
        store.invalidate(key, .outboxEdit(queued.item.name))
      }
      // The record is rewritten as committed, in place, rather than removed: values saved
      // before the commit, in memory or not, get the edit laid over them at every later
      // restore (`CommittedEdits.swift`). Killed before the write, the edit is still pending
      // at the next launch and is sent again (its idempotency key makes that harmless).
      if let backend, store.persister != nil, let edit = queued.edit, let payload = queued.payload {
        do {
          try committed.commit(
            record(queued, payload: payload), edit: edit, key: queued.key, at: store.wallNow,
            backend: backend)
        } catch {
          report(
            .notSaved, queued.item.id,
            "a sent edit could not be saved as committed (it is sent again, with the same "
              + "idempotency key, after a relaunch): \(error)")
        }
        change([queued.scopeID]) { queue.removeAll { $0 === queued } }
        return nil
      }
      removeSent(queued)
      return nil
    case let failure? where queued.sendsOnce:
      let cause: any Error
      if case .permanent(let error) = failure as? OutboxFailure {
        cause = error
      } else {
        cause = failure
      }
      dropSentOnce(queued, error: cause)
      return nil
    case let failure as OutboxFailure:
      let cause: any Error
      switch failure {
      case .permanent(let error): cause = error
      }
      let refusal = EditFailure(cause)
      if LoadEvents.isOn {
        reportEvent(.editFailed, queued, attempt: queued.item.attempt, error: cause)
      }
      rollBack(queued, error: cause)
      change([queued.scopeID]) {
        queued.item.lastError = refusal.reason
        queued.failure = refusal
        queued.activity = .idle
      }
      save(queued)
      end(queued, .failed(cause))
      return nil
    case let failure?:
      let delay = handler.backoff.delay(forRetry: queued.item.attempt)
      change([queued.scopeID]) {
        queued.item.lastError = "\(failure)"
        queued.activity = .backingOff(
          attempt: queued.item.attempt, nextTry: store.wallDate(at: store.now + delay))
      }
      return .sleep(delay, store.clock)
    }
  }
}
