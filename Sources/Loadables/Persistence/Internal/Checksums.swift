/// SHA-256 (FIPS 180-4), written out because Foundation on Linux has no CryptoKit. It names
/// the file of a key; nothing relies on it for security, only on its spread (a collision is
/// detected anyway: each file holds its full key).
enum SHA256 {
  private static let roundConstants: [UInt32] = [
    0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4,
    0xab1c_5ed5, 0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe,
    0x9bdc_06a7, 0xc19b_f174, 0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f,
    0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da, 0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7,
    0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967, 0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc,
    0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85, 0xa2bf_e8a1, 0xa81a_664b,
    0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070, 0x19a4_c116,
    0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
    0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7,
    0xc671_78f2,
  ]

  /// The digest of `bytes`, 32 bytes.
  static func digest(_ bytes: some Collection<UInt8>) -> [UInt8] {
    let state = Array(bytes).withUnsafeBufferPointer { words($0) }
    var digest: [UInt8] = []
    digest.reserveCapacity(32)
    for word in state {
      for shift: UInt32 in [24, 16, 8, 0] {
        digest.append(UInt8(truncatingIfNeeded: word >> shift))
      }
    }
    return digest
  }

  /// The lower-case hex spelling of the digest of `text`'s UTF-8 bytes: 64 characters.
  static func hex(_ text: String) -> String {
    // Over the string's own UTF-8 storage, and the ASCII digits written once: copying the
    // bytes into a growing array, and a `String` per digit, cost more than the digest itself.
    var text = text
    let state = text.withUTF8 { words($0) }
    let digits: StaticString = "0123456789abcdef"
    return String(unsafeUninitializedCapacity: 64) { ascii in
      digits.withUTF8Buffer { digits in
        var index = 0
        for word in state {
          var shift: UInt32 = 32
          while shift > 0 {
            shift -= 4
            ascii[index] = digits[Int((word >> shift) & 0x0f)]
            index += 1
          }
        }
      }
      return 64
    }
  }

  /// The eight words of the digest of `bytes`. Written over buffers rather than arrays: a
  /// record's file name is the digest of its key, computed at every read, write and removal.
  private static func words(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt32] {
    let bitLength = UInt64(bytes.count) &* 8
    // The message, a 1 bit, zeros, and the length in bits as 8 bytes, in whole 64-byte blocks.
    let padded = (bytes.count + 1 + 8 + 63) / 64 * 64
    var state: [UInt32] = [
      0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab,
      0x5be0_cd19,
    ]
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: padded) { message in
      let start = message.baseAddress!
      if let source = bytes.baseAddress { start.initialize(from: source, count: bytes.count) }
      (start + bytes.count).initialize(to: 0x80)
      (start + bytes.count + 1).initialize(repeating: 0, count: padded - 8 - bytes.count - 1)
      for index in 0..<8 {
        (start + padded - 8 + index).initialize(
          to: UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * index)))
      }
      roundConstants.withUnsafeBufferPointer { constants in
        state.withUnsafeMutableBufferPointer { state in
          withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { words in
            for chunk in stride(from: 0, to: padded, by: 64) {
              compress(start + chunk, words, constants, state)
            }
          }
        }
      }
      _ = message.deinitialize()
    }
    return state
  }

  /// Runs the compression function over the 64 bytes at `block`, updating `state`.
  @inline(__always)
  private static func compress(
    _ block: UnsafePointer<UInt8>, _ words: UnsafeMutableBufferPointer<UInt32>,
    _ constants: UnsafeBufferPointer<UInt32>, _ state: UnsafeMutableBufferPointer<UInt32>
  ) {
    for index in 0..<16 {
      let base = block + index * 4
      words[index] =
        UInt32(base[0]) << 24 | UInt32(base[1]) << 16 | UInt32(base[2]) << 8 | UInt32(base[3])
    }
    for index in 16..<64 {
      let s0 =
        rotate(words[index - 15], 7) ^ rotate(words[index - 15], 18) ^ (words[index - 15] >> 3)
      let s1 =
        rotate(words[index - 2], 17) ^ rotate(words[index - 2], 19) ^ (words[index - 2] >> 10)
      words[index] = words[index - 16] &+ s0 &+ words[index - 7] &+ s1
    }
    var (a, b, c, d, e, f, g, h) = (
      state[0], state[1], state[2], state[3], state[4], state[5], state[6], state[7]
    )
    for index in 0..<64 {
      let sum1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
      let choice = (e & f) ^ (~e & g)
      let temp1 = h &+ sum1 &+ choice &+ constants[index] &+ words[index]
      let sum0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
      let majority = (a & b) ^ (a & c) ^ (b & c)
      let temp2 = sum0 &+ majority
      (h, g, f, e, d, c, b, a) = (g, f, e, d &+ temp1, c, b, a, temp1 &+ temp2)
    }
    state[0] &+= a
    state[1] &+= b
    state[2] &+= c
    state[3] &+= d
    state[4] &+= e
    state[5] &+= f
    state[6] &+= g
    state[7] &+= h
  }

  private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 {
    value >> count | value << (32 - count)
  }
}

/// CRC-32 (IEEE 802.3, the one zlib and PNG use): detects a torn, truncated or hand-edited
/// record file.
enum CRC32 {
  private static let table: [UInt32] = (0..<256).map { index in
    var value = UInt32(index)
    for _ in 0..<8 { value = value & 1 == 1 ? 0xedb8_8320 ^ (value >> 1) : value >> 1 }
    return value
  }

  /// The checksum of `bytes`.
  static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
    table.withUnsafeBufferPointer { table in
      // Through the contiguous storage when there is one (arrays and their slices, as the
      // record format passes): a record's whole value is checked on every read and write.
      let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
        var crc: UInt32 = 0xffff_ffff
        for byte in buffer { crc = table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
        return crc
      }
      if let contiguous { return contiguous ^ 0xffff_ffff }
      var crc: UInt32 = 0xffff_ffff
      for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
      return crc ^ 0xffff_ffff
    }
  }
}
