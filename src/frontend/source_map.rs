//! Maps byte offsets of the preprocessed text back to the user's file and line, through the
//! line markers (`# LINE "FILE" FLAGS`) that the preprocessor writes.

/// One source file named by a line marker.
pub type FileIndex = u32;

/// Offset → (file, line) table built once per preprocessed text.
#[derive(Debug, Clone)]
pub struct SourceMap {
    /// Start offset of every line of the preprocessed text.
    line_starts: Vec<usize>,
    /// For every preprocessed line: the file index and the original line number.
    origin: Vec<(FileIndex, u32)>,
    /// File names, indexed by `FileIndex`.
    pub files: Vec<String>,
}

impl SourceMap {
    pub fn new(src: &str) -> SourceMap {
        let mut line_starts = vec![0];
        for (i, b) in src.bytes().enumerate() {
            if b == b'\n' {
                line_starts.push(i + 1);
            }
        }
        let mut files: Vec<String> = Vec::new();
        let mut origin = Vec::with_capacity(line_starts.len());
        let mut file: FileIndex = 0;
        let mut line: u32 = 1;
        if files.is_empty() {
            files.push(String::from("<input>"));
        }
        for (i, &start) in line_starts.iter().enumerate() {
            let end = line_starts
                .get(i + 1)
                .map_or(src.len(), |&e| e.saturating_sub(1));
            let text = &src[start..end.max(start)];
            origin.push((file, line));
            if let Some((l, f)) = parse_line_marker(text) {
                let idx = match files.iter().position(|x| *x == f) {
                    Some(p) => p,
                    None => {
                        files.push(f);
                        files.len() - 1
                    }
                };
                file = idx as FileIndex;
                line = l;
            } else {
                line = line.saturating_add(1);
            }
        }
        SourceMap {
            line_starts,
            origin,
            files,
        }
    }

    /// (file index, line, column) of a byte offset of the preprocessed text; columns count from 1.
    pub fn locate(&self, offset: usize) -> (FileIndex, u32, u32) {
        let idx = match self.line_starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i.saturating_sub(1),
        };
        let (f, l) = self.origin.get(idx).copied().unwrap_or((0, 0));
        let col = offset.saturating_sub(self.line_starts.get(idx).copied().unwrap_or(0)) + 1;
        (f, l, col as u32)
    }

    pub fn file_name(&self, f: FileIndex) -> &str {
        self.files.get(f as usize).map_or("<input>", |s| s.as_str())
    }
}

/// Parses `# 12 "file.c" 1 3` (or `#line 12 "file.c"`) into (12, "file.c").
fn parse_line_marker(text: &str) -> Option<(u32, String)> {
    let rest = text.strip_prefix('#')?.trim_start();
    let rest = rest.strip_prefix("line").unwrap_or(rest).trim_start();
    let digits_end = rest.find(|c: char| !c.is_ascii_digit())?;
    if digits_end == 0 {
        return None;
    }
    let line: u32 = rest[..digits_end].parse().ok()?;
    let rest = rest[digits_end..].trim_start();
    let rest = rest.strip_prefix('"')?;
    let mut name = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some((line, name)),
            '\\' => {
                if let Some(n) = chars.next() {
                    name.push(n);
                }
            }
            c => name.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::SourceMap;

    #[test]
    fn offsets_map_through_line_markers() {
        let src = "# 1 \"a.c\"\nint x;\n# 7 \"b.h\" 1\nint y;\nint z;\n# 3 \"a.c\" 2\nint w;\n";
        let m = SourceMap::new(src);
        let at = |s: &str| {
            let (f, l, c) = m.locate(src.find(s).unwrap());
            (m.file_name(f).to_string(), l, c)
        };
        assert_eq!(at("int x"), ("a.c".to_string(), 1, 1));
        assert_eq!(at("int y"), ("b.h".to_string(), 7, 1));
        assert_eq!(at("z;"), ("b.h".to_string(), 8, 5));
        assert_eq!(at("int w"), ("a.c".to_string(), 3, 1));
    }
}
