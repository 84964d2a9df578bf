//! Parsing preprocessed text with lang-c (GNU C11 flavour), and syntax errors as one line:
//! `file:line:column: syntax error at 'text'`.

use lang_c::ast::TranslationUnit;
use lang_c::driver::{parse_preprocessed, Config, Flavor};

use super::error::FrontendError;
use super::source_map::SourceMap;

pub fn parse(text: &str, map: &SourceMap) -> Result<TranslationUnit, FrontendError> {
    let mut config = Config::with_gcc();
    config.flavor = Flavor::GnuC11;
    let result = parse_preprocessed(&config, text.to_string()).map(|p| p.unit);
    result.map_err(|e| {
        let (f, line, col) = map.locate(e.offset);
        let rest = &text[e.offset.min(text.len())..];
        let token: String = rest
            .chars()
            .take_while(|c| !c.is_whitespace())
            .take(30)
            .collect();
        let token = if token.is_empty() {
            "end of input".to_string()
        } else {
            format!("'{token}'")
        };
        FrontendError::Syntax(format!(
            "{}:{}:{}: syntax error at {}",
            map.file_name(f),
            line,
            col,
            token
        ))
    })
}
