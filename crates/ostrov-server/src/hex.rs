//! Lowercase hexadecimal, the form of digests, session tokens and invite codes.

/// `bytes` in lowercase hexadecimal, two digits a byte: digests, session tokens, invite
/// codes.
pub(crate) fn hex(bytes: &[u8]) -> String {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        out.push(char::from(DIGITS[usize::from(b >> 4)]));
        out.push(char::from(DIGITS[usize::from(b & 15)]));
    }
    out
}
