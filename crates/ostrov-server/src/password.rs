//! Passwords: Argon2id with the `argon2` crate's default parameters (19 MiB, two passes),
//! stored as PHC strings.
//!
//! Argon2 is slow and memory-hard on purpose, so it runs on a few threads of its own (one
//! per core), never on the request threads. Each thread keeps its 19 MiB of working memory
//! for its whole life instead of asking the allocator for it on every sign-up and login:
//! the allocator would keep a freed block per thread that ever hashed, and a burst of
//! sign-ups on many threads would leave hundreds of megabytes resident. With the pool the
//! memory Argon2 ever holds is `threads × 19 MiB`, however many requests come.

use std::sync::{mpsc, Arc, Mutex};

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{Output, ParamsString, PasswordHash, Salt, SaltString};
use argon2::{Algorithm, Argon2, Block, Params, Version};

use crate::error::ApiError;

/// A piece of work for a password thread, given the thread's memory.
type Job = Box<dyn FnOnce(&mut Vec<Block>) + Send>;

/// The password threads. Dropping the pool stops them (once their queue is empty).
pub struct Pool {
    jobs: mpsc::Sender<Job>,
}

impl Pool {
    /// A pool of `threads` password threads (at least one).
    pub fn new(threads: usize) -> std::io::Result<Pool> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let queue = Arc::new(Mutex::new(queue));
        for i in 0..threads.max(1) {
            let queue = queue.clone();
            std::thread::Builder::new().name(format!("ostrov-password-{i}")).spawn(move || {
                let mut memory = Vec::new();
                loop {
                    let job = match queue.lock() {
                        Ok(q) => q.recv(),
                        Err(_) => return,
                    };
                    let Ok(job) = job else { return };
                    // A job that panics loses its answer (its caller gets an error), not
                    // the thread.
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job(&mut memory)));
                }
            })?;
        }
        Ok(Pool { jobs })
    }

    /// Runs `work` on a password thread and waits for its answer.
    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Vec<Block>) -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let (answer, answered) = tokio::sync::oneshot::channel();
        let job: Job = Box::new(move |memory| {
            let _ = answer.send(work(memory));
        });
        self.jobs.send(job).map_err(|_| ApiError::Internal("the password threads have stopped".into()))?;
        answered.await.map_err(|_| ApiError::Internal("a password thread failed".into()))
    }

    /// The PHC string of `password` with a new random salt.
    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        self.run(move |memory| hash(password.as_bytes(), memory))
            .await?
            .map_err(|e| ApiError::Internal(format!("argon2: {e}")))
    }

    /// Whether `password` is the one `stored` (a PHC string) was made from. A stored
    /// string that cannot be read is an error, not a wrong password.
    pub async fn verify(&self, password: String, stored: String) -> Result<bool, ApiError> {
        self.run(move |memory| verify(password.as_bytes(), &stored, memory))
            .await?
            .map_err(|e| ApiError::Internal(format!("argon2: {e}")))
    }
}

/// The working memory for `params`: the thread's own when it is the usual size (grown to
/// it once), a block of its own for other parameters (an old hash made with more memory).
fn with_blocks<T>(memory: &mut Vec<Block>, params: &Params, f: impl FnOnce(&mut [Block]) -> T) -> T {
    let n = params.block_count();
    if n == Params::default().block_count() {
        if memory.len() < n {
            memory.resize(n, Block::default());
        }
        f(&mut memory[..n])
    } else {
        f(&mut vec![Block::default(); n])
    }
}

/// The digest of `password` with `salt` by `argon`, `len` bytes long.
fn digest(
    argon: &Argon2<'_>,
    password: &[u8],
    salt: Salt<'_>,
    len: usize,
    memory: &mut Vec<Block>,
) -> argon2::password_hash::Result<Output> {
    let mut buf = [0u8; 64];
    let salt = salt.decode_b64(&mut buf)?;
    with_blocks(memory, argon.params(), |blocks| {
        Output::init_with(len, |out| Ok(argon.hash_password_into_with_memory(password, salt, out, &mut *blocks)?))
    })
}

/// The PHC string of `password`: Argon2id, default parameters, a new random salt.
pub fn hash(password: &[u8], memory: &mut Vec<Block>) -> argon2::password_hash::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    let argon = Argon2::default();
    let output = digest(&argon, password, salt.as_salt(), Params::DEFAULT_OUTPUT_LEN, memory)?;
    let phc = PasswordHash {
        algorithm: Algorithm::default().ident(),
        version: Some(Version::default().into()),
        params: ParamsString::try_from(argon.params())?,
        salt: Some(salt.as_salt()),
        hash: Some(output),
    };
    Ok(phc.to_string())
}

/// Whether `password` matches the PHC string `stored` (compared in constant time).
pub fn verify(password: &[u8], stored: &str, memory: &mut Vec<Block>) -> argon2::password_hash::Result<bool> {
    use argon2::password_hash::Error;
    let phc = PasswordHash::new(stored)?;
    let expected = phc.hash.ok_or(Error::PhcStringField)?;
    let salt = phc.salt.ok_or(Error::PhcStringField)?;
    let algorithm = Algorithm::try_from(phc.algorithm)?;
    let version = phc.version.map(Version::try_from).transpose()?.unwrap_or_default();
    let argon = Argon2::new(algorithm, version, Params::try_from(&phc)?);
    let got = digest(&argon, password, salt, expected.len(), memory)?;
    Ok(got == expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use argon2::password_hash::PasswordHasher;

    #[test]
    fn a_password_verifies_against_its_hash_only() {
        let mut memory = Vec::new();
        let stored = hash("пароль-для-теста".as_bytes(), &mut memory).unwrap();
        assert!(stored.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{stored}");
        assert!(verify("пароль-для-теста".as_bytes(), &stored, &mut memory).unwrap());
        assert!(!verify("пароль-для-теста!".as_bytes(), &stored, &mut memory).unwrap());
        // Two hashes of one password differ (a new salt each time).
        assert_ne!(stored, hash("пароль-для-теста".as_bytes(), &mut memory).unwrap());
        assert_eq!(memory.len(), Params::default().block_count());
    }

    #[test]
    fn hashes_stored_before_the_pool_still_verify() {
        // Accounts made by `Argon2::default().hash_password`, as the server did before.
        let salt = SaltString::generate(&mut OsRng);
        let old = Argon2::default().hash_password(b"old-password", &salt).unwrap().to_string();
        let mut memory = Vec::new();
        assert!(verify(b"old-password", &old, &mut memory).unwrap());
        assert!(!verify(b"old-passwore", &old, &mut memory).unwrap());
        // Other parameters (less memory) verify too, with a block of their own.
        let small = Argon2::from(Params::new(1024, 1, 1, None).unwrap());
        let other = small.hash_password(b"x-password", &salt).unwrap().to_string();
        assert!(verify(b"x-password", &other, &mut memory).unwrap());
        assert!(verify(b"x", "not a phc string", &mut memory).is_err());
    }

    #[test]
    fn the_pool_answers_from_its_threads() {
        let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
        let pool = Pool::new(2).unwrap();
        rt.block_on(async {
            let stored = pool.hash("пароль-гостя".into()).await.unwrap();
            assert!(pool.verify("пароль-гостя".into(), stored.clone()).await.unwrap());
            assert!(!pool.verify("чужой-пароль".into(), stored).await.unwrap());
            assert!(pool.verify("x".into(), "$broken".into()).await.is_err());
        });
    }
}
