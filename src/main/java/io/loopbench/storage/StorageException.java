package io.loopbench.storage;

/** A record could not be written or deleted; what was stored before is unchanged. */
public class StorageException extends RuntimeException {

    private final boolean diskFull;

    public StorageException(String message, Throwable cause, boolean diskFull) {
        super(message, cause);
        this.diskFull = diskFull;
    }

    /** Whether the file system said it has no space left. */
    public boolean diskFull() {
        return diskFull;
    }
}
