//! [`AnyStore`]: the store `ostrov serve --db` names, SQLite or PostgreSQL. The server is
//! generic over [`Store`](crate::Store); this picks one at start and dispatches every call
//! to it.
//!
//! The dispatch is not written by hand: the store's traits are declared with
//! `store_trait!`, which also implements each of them for `AnyStore`, every method
//! forwarded to the store the value holds. A method added to a trait is forwarded with it,
//! and `AnyStore` can never fall back to a trait's default method where the store it holds
//! has its own (as `shared` would, for PostgreSQL).

use crate::{PgStore, Result, SqliteStore};

/// SQLite (a file path, or `:memory:`) or PostgreSQL (a `postgres://` or `postgresql://` URL).
#[derive(Clone)]
pub enum AnyStore {
    Sqlite(SqliteStore),
    Postgres(PgStore),
}

/// Whether a `--db` value names a PostgreSQL database rather than a SQLite file.
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

impl AnyStore {
    /// Opens and migrates the store `db` names.
    pub async fn open(db: &str) -> Result<AnyStore> {
        Ok(if is_postgres(db) {
            AnyStore::Postgres(PgStore::open(db).await?)
        } else {
            AnyStore::Sqlite(SqliteStore::open(db).await?)
        })
    }

    /// "SQLite" or "PostgreSQL", for messages.
    pub fn kind(&self) -> &'static str {
        match self {
            AnyStore::Sqlite(_) => "SQLite",
            AnyStore::Postgres(_) => "PostgreSQL",
        }
    }
}

/// Declares one of the store's traits (`pub trait Name { … }`, with the bounds
/// `Send + Sync + 'static`) and implements it for [`AnyStore`] by forwarding every method
/// to the store the value holds. Each method takes `&self` and is one of:
///
/// - `async fn name(&self, a: A, …) -> T;`: in the trait,
///   `fn name(&self, a: A, …) -> impl Future<Output = T> + Send` (the future may borrow
///   `self` and the arguments). A block instead of `;` is the default body.
/// - `fn name(&self, a: A, …) -> impl Future<Output = T> + Send + 'static;`: a future that
///   owns what it needs, so the call is issued when the method is called, not when the
///   future is first polled ([`EventLog::append`](crate::EventLog::append)). `AnyStore`
///   issues it on the store it holds at once and boxes the future.
/// - `fn name(&self, a: A, …) -> T;`, or with a default block: a plain method.
macro_rules! store_trait {
    ($(#[$attr:meta])* pub trait $name:ident { $($items:tt)* }) => {
        store_trait!(@item $name [$(#[$attr])*] [] [] $($items)*);
    };

    // Every method read: the trait, then its forwarding.
    (@item $name:ident [$($attr:tt)*] [$($decl:tt)*] [$($fwd:tt)*]) => {
        $($attr)*
        pub trait $name: Send + Sync + 'static { $($decl)* }

        impl $name for $crate::AnyStore { $($fwd)* }
    };

    // `async fn`, without and with a default body. (`self` is taken from the declaration,
    // so that a default body written there can name it.)
    (@item $name:ident $attr:tt [$($decl:tt)*] [$($fwd:tt)*]
        $(#[$m:meta])* async fn $f:ident(&$self:ident $(, $a:ident: $t:ty)* $(,)?) -> $out:ty;
        $($rest:tt)*
    ) => {
        store_trait!(@item $name $attr
            [$($decl)* $(#[$m])* fn $f(&$self $(, $a: $t)*) -> impl ::std::future::Future<Output = $out> + Send;]
            [$($fwd)* store_trait!(@async $self $f ($($a: $t),*) -> $out);]
            $($rest)*);
    };
    (@item $name:ident $attr:tt [$($decl:tt)*] [$($fwd:tt)*]
        $(#[$m:meta])* async fn $f:ident(&$self:ident $(, $a:ident: $t:ty)* $(,)?) -> $out:ty $body:block
        $($rest:tt)*
    ) => {
        store_trait!(@item $name $attr
            [$($decl)* $(#[$m])* fn $f(&$self $(, $a: $t)*) -> impl ::std::future::Future<Output = $out> + Send {
                async move $body
            }]
            [$($fwd)* store_trait!(@async $self $f ($($a: $t),*) -> $out);]
            $($rest)*);
    };

    // A future issued at the call (before the plain `fn`, which would match it too).
    (@item $name:ident $attr:tt [$($decl:tt)*] [$($fwd:tt)*]
        $(#[$m:meta])* fn $f:ident(&$self:ident $(, $a:ident: $t:ty)* $(,)?)
            -> impl Future<Output = $out:ty> + Send + 'static;
        $($rest:tt)*
    ) => {
        store_trait!(@item $name $attr
            [$($decl)* $(#[$m])*
                fn $f(&$self $(, $a: $t)*) -> impl ::std::future::Future<Output = $out> + Send + 'static;]
            [$($fwd)*
                fn $f(&$self $(, $a: $t)*) -> impl ::std::future::Future<Output = $out> + Send + 'static {
                    // Issued now on the store held; one boxed future type answers for both.
                    let issued: ::std::pin::Pin<Box<dyn ::std::future::Future<Output = $out> + Send>> =
                        match $self {
                            $crate::AnyStore::Sqlite(s) => Box::pin(s.$f($($a),*)),
                            $crate::AnyStore::Postgres(s) => Box::pin(s.$f($($a),*)),
                        };
                    issued
                }]
            $($rest)*);
    };

    // A plain `fn`, without and with a default body.
    (@item $name:ident $attr:tt [$($decl:tt)*] [$($fwd:tt)*]
        $(#[$m:meta])* fn $f:ident(&$self:ident $(, $a:ident: $t:ty)* $(,)?) -> $out:ty;
        $($rest:tt)*
    ) => {
        store_trait!(@item $name $attr
            [$($decl)* $(#[$m])* fn $f(&$self $(, $a: $t)*) -> $out;]
            [$($fwd)* store_trait!(@plain $self $f ($($a: $t),*) -> $out);]
            $($rest)*);
    };
    (@item $name:ident $attr:tt [$($decl:tt)*] [$($fwd:tt)*]
        $(#[$m:meta])* fn $f:ident(&$self:ident $(, $a:ident: $t:ty)* $(,)?) -> $out:ty $body:block
        $($rest:tt)*
    ) => {
        store_trait!(@item $name $attr
            [$($decl)* $(#[$m])* fn $f(&$self $(, $a: $t)*) -> $out $body]
            [$($fwd)* store_trait!(@plain $self $f ($($a: $t),*) -> $out);]
            $($rest)*);
    };

    // The forwarding methods.
    (@async $self:ident $f:ident ($($a:ident: $t:ty),*) -> $out:ty) => {
        async fn $f(&$self $(, $a: $t)*) -> $out {
            match $self {
                $crate::AnyStore::Sqlite(s) => s.$f($($a),*).await,
                $crate::AnyStore::Postgres(s) => s.$f($($a),*).await,
            }
        }
    };
    (@plain $self:ident $f:ident ($($a:ident: $t:ty),*) -> $out:ty) => {
        fn $f(&$self $(, $a: $t)*) -> $out {
            match $self {
                $crate::AnyStore::Sqlite(s) => s.$f($($a),*),
                $crate::AnyStore::Postgres(s) => s.$f($($a),*),
            }
        }
    };
}
