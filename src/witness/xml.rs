//! Escaping text for XML 1.0 attribute values and character data.

/// Escape `text` for use inside an element or a double-quoted attribute. Characters that XML
/// 1.0 cannot carry at all (most control characters) become U+FFFD, so that the document stays
/// well-formed whatever a C identifier or a path holds.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Tab, newline and carriage return are legal, but an attribute value normalises
            // them to spaces: keep them as character references.
            '\t' => out.push_str("&#9;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            c if is_xml_char(c) => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
    out
}

/// XML 1.0 `Char` production.
fn is_xml_char(c: char) -> bool {
    matches!(c as u32, 0x20..=0xD7FF | 0xE000..=0xFFFD | 0x10000..=0x10FFFF)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_control_characters() {
        assert_eq!(
            escape("a<b && c>\"d\"'"),
            "a&lt;b &amp;&amp; c&gt;&quot;d&quot;&apos;"
        );
        assert_eq!(escape("x\u{1}y\u{b}"), "x\u{FFFD}y\u{FFFD}");
        assert_eq!(escape("t\tn\n"), "t&#9;n&#10;");
        assert_eq!(escape("ünïcode ✓"), "ünïcode ✓");
    }
}
