public import Loadables

extension Connectivity {
  /// Switches the source offline: loads that wait for the network
  /// (``Loadables/LoadPolicy/waitsForNetwork(_:)-type.method``, a ``Loadables/LoaderStore``
  /// made with this connectivity) wait from their next attempt on.
  ///
  /// A test makes its own source, hands it to the store or the policy, and switches it by
  /// hand:
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// let connectivity = Connectivity(isOnline: false)
  /// model.refresh()  // .waitsForNetwork(connectivity)
  /// try await connectivity.waiters(count: 1)
  /// XCTAssertTrue(model.$feed.isWaitingForNetwork)
  /// connectivity.goOnline()
  /// ```
  public func goOffline() { update(isOnline: false) }

  /// Switches the source online: every load waiting for the network goes on.
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// connectivity.goOnline()
  /// try await waitUntil("the load to end") { !model.$feed.isRunning }
  /// ```
  public func goOnline() { update(isOnline: true) }

  /// Returns once at least `count` tasks wait for this source to say online — a load
  /// waiting for the network counts one — so a test never sleeps to let a load reach its
  /// wait.
  ///
  /// <!-- compile: context ModelTests -->
  /// ```swift
  /// let connectivity = Connectivity(isOnline: false)
  /// let loading = Task { await loader.load() }
  /// try await connectivity.waiters(count: 1)
  /// XCTAssertTrue(loader.isWaitingForNetwork)
  /// connectivity.goOnline()
  /// await loading.value
  /// ```
  ///
  /// Checked each time other work has had a chance to run.
  ///
  /// - Parameters:
  ///   - count: How many waiting tasks to wait for; at least 1.
  ///   - timeout: How long, in real time, to wait before failing; must be positive.
  /// - Throws: ``WaitTimeout`` naming the count, the waiters seen and whether the source
  ///   says online, when fewer than `count` waited in time; `CancellationError` when the
  ///   waiting task is cancelled.
  public func waiters(count: Int, timeout: Duration = .seconds(5)) async throws {
    let what = "Connectivity.waiters(count: \(count))"
    guard count >= 1 else { throw WaitTimeout("\(what): count must be at least 1") }
    guard timeout > .zero else {
      throw WaitTimeout("\(what): timeout must be positive, got \(timeout)")
    }
    try await poll(
      timeout: timeout,
      failure: {
        "\(what): waited \(timeout) for \(counted(count, "waiter")); saw \(waitingCount) "
          + "while the source says \(isOnline ? "online" : "offline"). "
          + (isOnline
            ? "Nothing waits while online: call goOffline() before the load starts."
            : "Does the load's policy wait for the network on this source?")
      },
      condition: { waitingCount >= count })
  }
}
