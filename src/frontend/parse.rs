//! Parsing preprocessed text with lang-c (GNU C11 flavour), and syntax errors as one line:
//! `file:line:column: syntax error at 'text'`.

use lang_c::ast::TranslationUnit;
use lang_c::driver::{parse_preprocessed, Config, Flavor};

use super::error::FrontendError;
use super::source_map::SourceMap;

pub fn parse(text: &str, map: &SourceMap) -> Result<TranslationUnit, FrontendError> {
    let mut config = Config::with_gcc();
    config.flavor = Flavor::GnuC11;
    // lang-c's generated parser recurses deeply on long expressions: run it on a thread with
    // a big stack so that large inputs cannot overflow it.
    let owned = text.to_string();
    let handle = std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || parse_preprocessed(&config, owned).map(|p| p.unit));
    let result = match handle {
        Ok(h) => h
            .join()
            .map_err(|_| FrontendError::Syntax("internal error in the parser".to_string()))?,
        Err(e) => {
            return Err(FrontendError::Input(format!(
                "cannot start the parser: {e}"
            )))
        }
    };
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
