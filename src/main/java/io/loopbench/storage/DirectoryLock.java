package io.loopbench.storage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;

/**
 * One service per data directory: an exclusive lock on {@code <directory>/.lock}, held from start to stop, whose
 * content names the holder (pid, start time) so that a second service can say who has it. The operating system
 * drops the lock when its process dies, even by {@code kill -9}, so a stale file never blocks a restart.
 */
public final class DirectoryLock implements AutoCloseable {

    static final String FILE = ".lock";

    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /**
     * Takes the directory's lock.
     *
     * @throws IllegalStateException naming the holder when another process (or this one) has it
     */
    public static DirectoryLock take(Path directory) {
        try {
            Files.createDirectories(directory);
            Path file = directory.resolve(FILE);
            FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = ch.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                String holder = Files.readString(file, StandardCharsets.UTF_8).strip();
                ch.close();
                throw new IllegalStateException("the data directory " + directory.toAbsolutePath() + " is in use by "
                        + "another loopbench service (" + (holder.isEmpty() ? "holder unknown" : holder) + "); "
                        + "stop it, or give this one another loopbench.data-directory");
            }
            ch.truncate(0);
            ch.write(ByteBuffer.wrap(("pid " + ProcessHandle.current().pid() + ", started " + Instant.now() + "\n")
                    .getBytes(StandardCharsets.UTF_8)));
            ch.force(true);
            return new DirectoryLock(ch, lock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the data directory " + directory, e);
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            // the lock goes with the channel, and with the process at the latest
        }
    }
}
